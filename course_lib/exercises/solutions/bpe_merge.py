from collections import Counter


def my_merge_step(words, new_id):
    counts = Counter()
    for word, count in words.items():
        for pair in zip(word, word[1:]):  # inside the word only; overlapping pairs too
            counts[pair] += count
    pair = min(counts, key=lambda p: (-counts[p], p))  # the most frequent; ties: the smallest
    new_words = {}
    for word, count in words.items():
        out, i = [], 0
        while i < len(word):
            if word[i : i + 2] == pair:
                out.append(new_id)
                i += 2
            else:
                out.append(word[i])
                i += 1
        new_words[tuple(out)] = count
    return pair, new_words
