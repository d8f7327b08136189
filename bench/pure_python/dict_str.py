"""Dictionary and string processing.

Generates DOCS pseudo-random documents (seeded random.Random) from a made-up
vocabulary, then for each one: joins words into sentences, splits the text
back, normalizes tokens, counts word and bigram frequencies in dicts, merges
them into global tables, and builds a formatted report of the most frequent
entries using sorting, dict comprehensions and str.format / f-strings.
Prints the totals and a CRC-32 checksum of all reports.
"""

import random
import zlib

DOCS = 1000
WORDS_PER_DOC = 2500
VOCAB_SIZE = 3000
SEED = 20240611

SYLLABLES = [
    "ka", "lo", "mi", "ren", "tu", "sa", "vo", "ne", "qui", "dar",
    "el", "po", "zan", "fi", "gor", "ba", "shi", "um", "tek", "ro",
]
PUNCT = ".,;:!?"


def make_vocabulary(rng, size):
    seen = {}
    words = []
    while len(words) < size:
        n = rng.randint(1, 4)
        word = "".join(rng.choice(SYLLABLES) for _ in range(n))
        if word not in seen:
            seen[word] = len(words)
            words.append(word)
    return words


def make_document(rng, vocab, cum_weights, n_words):
    picked = rng.choices(vocab, cum_weights=cum_weights, k=n_words)
    sentences = []
    i = 0
    while i < n_words:
        length = rng.randint(4, 16)
        chunk = picked[i:i + length]
        i += length
        first = chunk[0]
        chunk[0] = first[:1].upper() + first[1:]
        if len(chunk) > 6:
            chunk[len(chunk) // 2] += ","
        sentences.append(" ".join(chunk) + rng.choice(".!?"))
    return "\n".join(" ".join(sentences[j:j + 5])
                     for j in range(0, len(sentences), 5))


def tokenize(text):
    tokens = []
    for line in text.splitlines():
        for raw in line.split(" "):
            word = raw.strip(PUNCT).lower()
            if word:
                tokens.append(word)
    return tokens


def count_words(tokens):
    counts = {}
    for w in tokens:
        counts[w] = counts.get(w, 0) + 1
    return counts


def count_bigrams(tokens):
    counts = {}
    prev = tokens[0]
    for w in tokens[1:]:
        key = prev + "|" + w
        if key in counts:
            counts[key] += 1
        else:
            counts[key] = 1
        prev = w
    return counts


def merge_into(total, part):
    for key, value in part.items():
        total[key] = total.get(key, 0) + value


def report(doc_no, words, bigrams, top=15):
    ranked = sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))
    lines = ["doc {:04d}: {} distinct, {} tokens".format(
        doc_no, len(words), sum(words.values()))]
    for rank, (word, count) in enumerate(ranked[:top], 1):
        lines.append(f"  {rank:2d}. {word:<16s}{count:6d}")
    frequent = {k: v for k, v in bigrams.items() if v >= 3}
    pairs = sorted(frequent, key=lambda k: (-frequent[k], k))[:5]
    lines.append("  bigrams: " + ", ".join(
        "%s=%d" % (p.replace("|", " "), frequent[p]) for p in pairs))
    by_initial = {}
    for word in words:
        by_initial.setdefault(word[0], []).append(word)
    lines.append("  initials: " + " ".join(
        "%s:%d" % (k, len(by_initial[k])) for k in sorted(by_initial)))
    return "\n".join(lines)


def main():
    rng = random.Random(SEED)
    vocab = make_vocabulary(rng, VOCAB_SIZE)
    # Zipf-like weights: rank r gets weight 1/r.
    cum = []
    acc = 0.0
    for r in range(1, len(vocab) + 1):
        acc += 1.0 / r
        cum.append(acc)

    all_words = {}
    all_bigrams = {}
    crc = 0
    chars = 0
    for d in range(DOCS):
        text = make_document(rng, vocab, cum, WORDS_PER_DOC)
        chars += len(text)
        tokens = tokenize(text)
        words = count_words(tokens)
        bigrams = count_bigrams(tokens)
        merge_into(all_words, words)
        merge_into(all_bigrams, bigrams)
        crc = zlib.crc32(report(d, words, bigrams).encode("utf-8"), crc)

    lengths = {w: len(w) for w in all_words}
    long_words = {w: c for w, c in all_words.items() if lengths[w] >= 8}
    final = report(DOCS, all_words, all_bigrams, top=25)
    crc = zlib.crc32(final.encode("utf-8"), crc)

    print("chars=%d tokens=%d distinct=%d bigrams=%d long=%d" % (
        chars, sum(all_words.values()), len(all_words), len(all_bigrams),
        len(long_words)))
    print("top: " + " ".join(final.splitlines()[1].split()[1:]))
    print("checksum=%08x" % crc)


if __name__ == "__main__":
    main()
