def keep(n):
    return n % 3 == 1


total = 0
text = ""
for round_ in range(240):
    xs = []
    for k in range(12000):
        xs.append((k * 7919) % 10007)
    kept = sorted([x for x in xs if keep(x)])
    total = total + kept[len(kept) // 2]
    words = []
    for k in range(1500):
        words.append("w" + str(kept[k]))
    text = (text + words[round_ % 1500] + ":")[-64:]
print(total, text)
