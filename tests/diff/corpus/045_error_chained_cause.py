# Uncaught exception with an explicit cause (raise ... from ...): exit status 1.
# (Only builtins are used for parsing so that no stdlib paths appear in the traceback.)


class ConfigError(Exception):
    pass


def parse_port(text):
    key, _, value = text.partition("=")
    if key.strip() != "port":
        raise KeyError(key.strip())
    return int(value)


def load_config(name, text):
    try:
        port = parse_port(text)
    except ValueError as e:
        raise ConfigError(f"config {name!r} has an invalid port") from e
    if not 0 < port < 65536:
        raise ConfigError(f"config {name!r}: port {port} out of range")
    return {"name": name, "port": port}


configs = [
    ("good", "port = 8080"),
    ("also-good", "port=443"),
    ("bad", "port = eighty"),
]
for name, text in configs:
    cfg = load_config(name, text)
    print(name, sorted(cfg.items()))
print("unreachable")
