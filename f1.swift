let raw = ["1", "x", "3"]
print(raw.compactMap { Int($0) })
