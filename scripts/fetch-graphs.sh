#!/usr/bin/env bash
# Downloads the real graphs of the Medusa papers (for users with internet access; tests never run
# this). SNAP edge lists stay as .txt.gz, which medusa_io reads directly; SuiteSparse archives are
# unpacked to their .mtx file. Prints a SHA-256 for every file and appends it to DEST/SHA256SUMS
# so a later `sha256sum -c SHA256SUMS` (run in DEST) can check the copies.
#
# Usage: scripts/fetch-graphs.sh DEST [NAME...]
#   NAME: wiki-Talk roadNet-CA soc-LiveJournal1 kkt_power coPapersCiteseer hugebubbles-00020
#         road_usa (default: all). Files already present are not downloaded again.
# Example:
#   scripts/fetch-graphs.sh ~/graphs roadNet-CA kkt_power
#   medusa-gen info ~/graphs/roadNet-CA.txt.gz --symmetric
#   medusa-gen convert ~/graphs/kkt_power.mtx -o ~/graphs/kkt_power.medusa-bin
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || usage
dest=$1
shift

snap_base=https://snap.stanford.edu/data
suitesparse_base=https://sparse.tamu.edu/MM
# name -> URL (SNAP: the edge list itself; SuiteSparse: Group/name archive)
declare -A url=(
  [wiki-Talk]=$snap_base/wiki-Talk.txt.gz
  [roadNet-CA]=$snap_base/roadNet-CA.txt.gz
  [soc-LiveJournal1]=$snap_base/soc-LiveJournal1.txt.gz
  [kkt_power]=$suitesparse_base/Zaoui/kkt_power.tar.gz
  [coPapersCiteseer]=$suitesparse_base/DIMACS10/coPapersCiteseer.tar.gz
  [hugebubbles-00020]=$suitesparse_base/DIMACS10/hugebubbles-00020.tar.gz
  [road_usa]=$suitesparse_base/DIMACS10/road_usa.tar.gz
)
all=(wiki-Talk roadNet-CA soc-LiveJournal1 kkt_power coPapersCiteseer hugebubbles-00020 road_usa)
names=("$@")
[[ ${#names[@]} -gt 0 ]] || names=("${all[@]}")
for name in "${names[@]}"; do
  [[ -n ${url[$name]+x} ]] || { echo "fetch-graphs: unknown graph '$name' (known: ${all[*]})" >&2; exit 2; }
done

if command -v curl >/dev/null; then
  download() { curl --fail --location --retry 3 --output "$2" "$1"; }
elif command -v wget >/dev/null; then
  download() { wget --tries=3 --output-document="$2" "$1"; }
else
  echo "fetch-graphs: needs curl or wget" >&2
  exit 1
fi

mkdir -p "$dest"
cd "$dest"
for name in "${names[@]}"; do
  source_url=${url[$name]}
  if [[ $source_url == *.txt.gz ]]; then
    file=$name.txt.gz
    if [[ ! -s $file ]]; then
      echo "fetch-graphs: $name <- $source_url"
      download "$source_url" "$file.part" && mv "$file.part" "$file"
    fi
  else
    file=$name.mtx
    if [[ ! -s $file ]]; then
      echo "fetch-graphs: $name <- $source_url"
      download "$source_url" "$name.tar.gz.part"
      # The archive holds NAME/NAME.mtx (sometimes with extra vectors beside it).
      tar -xzf "$name.tar.gz.part" "$name/$name.mtx"
      mv "$name/$name.mtx" "$file"
      rmdir "$name" 2>/dev/null || true
      rm -f "$name.tar.gz.part"
    fi
  fi
  sum=$(sha256sum "$file")
  echo "$sum"
  grep -qxF "$sum" SHA256SUMS 2>/dev/null || echo "$sum" >>SHA256SUMS
done
echo "fetch-graphs: done; checksums in $dest/SHA256SUMS"
