#!/bin/sh
# Writes every bank snippet (a question file's `code: |` block) to its own file in DIR: the
# fuzzer's starting corpus. Usage: seed-corpus.sh QUESTIONS_DIR DIR
set -eu
questions=$1
out=$2
mkdir -p "$out"
find "$questions" -name '*.yaml' | sort | while read -r file; do
    awk '
        /^code: *\|/ { inside = 1; next }
        inside && /^  / { print substr($0, 3); next }
        inside && /^$/ { print ""; next }
        inside { exit }
    ' "$file" > "$out/$(basename "$file" .yaml).swift"
    [ -s "$out/$(basename "$file" .yaml).swift" ] || rm -f "$out/$(basename "$file" .yaml).swift"
done
echo "seed-corpus.sh: $(ls "$out" | wc -l) snippets in $out"
