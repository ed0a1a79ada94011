#!/bin/bash
# Writes the release tarball: tools/dist-tarball.sh OUTPUT PREFIX EPOCH [EXTRA...]
#   OUTPUT  e.g. raidtune-0.1.0.tar.xz
#   PREFIX  top folder inside it, e.g. raidtune-0.1.0
#   EPOCH   the mtime of every entry (SOURCE_DATE_EPOCH)
#   EXTRA   built files/folders to add (dist, the generated spec)
# Contents: the files git tracks or would track (not ignored, not deleted) plus EXTRA.
# Reproducible: sorted names, owner/group 0, fixed mtime, normalised modes, GNU format (no pax
# atime/ctime headers), single-threaded xz. Two runs on the same tree give the same bytes.
set -euo pipefail

output=$1 prefix=$2 epoch=$3
shift 3
cd "$(dirname "$0")/.."

list=$(mktemp)
trap 'rm -f "$list" "$output.tmp"' EXIT
{
    git ls-files -z --cached --others --exclude-standard
    for extra in "$@"; do printf '%s\0' "$extra"; done
} | LC_ALL=C sort -zu | while IFS= read -r -d '' file; do
    # A file deleted in the working tree is still in git's index: leave it out.
    if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
done > "$list"

LC_ALL=C tar --null --files-from="$list" --sort=name --format=gnu \
    --owner=0 --group=0 --numeric-owner --mtime="@$epoch" --mode=u+rw,go=rX \
    --transform "flags=r;s,^,$prefix/," -cf - | xz -9 -T1 -c > "$output.tmp"
mv "$output.tmp" "$output"
