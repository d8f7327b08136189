# Uncaught KeyError from a dict lookup: exit status 1.
PRICES = {"apple": 3, "banana": 1, "cherry": 7}


def price_of(item):
    return PRICES[item]


def order_total(items):
    total = 0
    for item, qty in items:
        total += price_of(item) * qty
        print(f"  {item} x{qty}")
    return total


orders = [
    [("apple", 2), ("banana", 6)],
    [("cherry", 1)],
    [("banana", 1), ("durian", 2), ("apple", 1)],
]
for i, order in enumerate(orders):
    print(f"order {i}: total {order_total(order)}")
print("unreachable")
