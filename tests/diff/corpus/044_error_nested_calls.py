# Uncaught exception raised deep in nested calls: traceback, exit status 1.
class Account:
    def __init__(self, owner, balance):
        self.owner = owner
        self.balance = balance

    def withdraw(self, amount):
        return validate_amount(self, amount)


def validate_amount(account, amount):
    return check_limit(account.balance, amount)


def check_limit(balance, amount):
    ratio = compute_ratio(balance, amount)
    return ratio < 1


def compute_ratio(balance, amount):
    return amount / balance


accounts = [Account("ann", 100), Account("bob", 50), Account("cid", 0)]
for acct in accounts:
    print(acct.owner, "ok" if acct.withdraw(30) else "over limit")
print("unreachable")
