let t = Task { () -> Int in
    print("work")
    return 42
}
print(await t.value)
