#!/usr/bin/env python3
"""Imports gcdquiz's Anki exports with Anki's own library (the `anki` package from PyPI) and
checks what a learner's collection would hold: every note imported, choice options in an order
that depends on the seed (the right one not always `a`), code left-aligned on the card, and every
trace question stating the prelude and the host's rules.

    python anki_import_check.py GCDQUIZ [BANK]     (make check-anki sets up the package)
"""
import os
import re
import subprocess
import sys
import tempfile

from anki.collection import Collection
from anki.import_export_pb2 import ImportCsvRequest


def imported(gcdquiz, bank, seed, folder):
    """The notes of a fresh collection after importing `export --format anki --seed SEED`."""
    path = os.path.join(folder, "seed-%d.txt" % seed)
    command = [gcdquiz, "export", "--format", "anki", "--seed", str(seed), "--output", path]
    if bank:
        command += ["--bank", bank]
    subprocess.run(command, check=True)
    lines = [line for line in open(path, encoding="utf-8") if line.startswith("gcdquiz-")]
    collection = Collection(os.path.join(folder, "seed-%d.anki2" % seed))
    metadata = collection.get_csv_metadata(path=path, delimiter=None)
    result = collection.import_csv(ImportCsvRequest(path=path, metadata=metadata))
    notes = [collection.get_note(note_id) for note_id in collection.find_notes("")]
    collection.close()
    return len(lines), len(result.log.new), {note.guid: note for note in notes}


def main():
    gcdquiz = sys.argv[1]
    bank = sys.argv[2] if len(sys.argv) > 2 else None
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        letters = {}
        for seed in (1, 2):
            lines, new, notes = imported(gcdquiz, bank, seed, folder)
            if new != lines or len(notes) != lines:
                failures.append("seed %d: %d notes in the file, %d imported, %d in the collection" % (seed, lines, new, len(notes)))
            correct = {}
            for guid, note in notes.items():
                front, back = note.fields[0], note.fields[1]
                if not front.startswith('<div style="text-align: left">'):
                    failures.append("%s: the card is not left-aligned" % guid)
                if "gcdquiz::trace" in note.tags and '<pre style="text-align: left">' not in front:
                    failures.append("%s: the snippet is not left-aligned" % guid)
                if "gcdquiz::trace" in note.tags and "the main thread serves the main queue" not in front:
                    failures.append("%s: a trace question without the host's rules" % guid)
                if "gcdquiz::trace" in note.tags and "let serialQueue = DispatchQueue" not in front:
                    failures.append("%s: a trace question without the prelude" % guid)
                found = re.search(r"Correct: ([a-z, ]+)<", back)
                if "gcdquiz::choice" in note.tags and found:
                    correct[guid] = found.group(1)
            letters[seed] = correct
            first = sum(1 for value in correct.values() if value.startswith("a"))
            print("seed %d: %d of %d notes imported; %d choice cards, %d with the right option first"
                  % (seed, new, lines, len(correct), first))
            if correct and first == len(correct):
                failures.append("seed %d: every choice card's right option is a" % seed)
        same = sum(1 for guid in letters[1] if letters[2].get(guid) == letters[1][guid])
        print("seeds 1 and 2: %d of %d choice cards have the same right letters" % (same, len(letters[1])))
        if letters[1] and same == len(letters[1]):
            failures.append("the order of options does not depend on the seed")
    for failure in failures:
        print("FAIL: " + failure)
    print("%d passed, %d failed" % (1 if not failures else 0, 1 if failures else 0))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
