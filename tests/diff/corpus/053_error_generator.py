# Exception raised inside a generator and not caught: exit status 1.
def parse_records(lines):
    for lineno, line in enumerate(lines, 1):
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"line {lineno}: missing '=' in {line!r}")
        yield key.strip(), int(value)


def totals(records):
    running = 0
    for key, value in records:
        running += value
        yield key, running


lines = ["a = 1", "b = 2", "c = 30", "broken line", "d = 4"]
gen = totals(parse_records(lines))
for key, running in gen:
    print(key, running)
print("unreachable")
