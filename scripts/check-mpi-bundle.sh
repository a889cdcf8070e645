#!/usr/bin/env bash
# Runs a command with the Open MPI bundle of scripts/make-mpi-bundle.sh and this machine's own
# Open MPI hidden (as root: a private mount namespace), so that only the bundle can be found, as on
# a machine without MPI. Files of the system's MPI read as empty there: loading one fails loudly.
#   scripts/check-mpi-bundle.sh <openmpi-bundle.tar.xz> <command...>
# e.g. scripts/check-mpi-bundle.sh /tmp/b/openmpi-bundle.tar.xz mpirun -np 2 --oversubscribe ./hello
set -euo pipefail
bundle=${1:?usage: scripts/check-mpi-bundle.sh <openmpi-bundle.tar.xz> <command...>}
shift
[ $# -gt 0 ] || { echo "check-mpi-bundle: no command given" >&2; exit 2; }
unpacked=$(mktemp -d /tmp/mpi-bundle.XXXXXX)
trap 'rm -rf "$unpacked"' EXIT
tar -C "$unpacked" -xJf "$bundle"
lib=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
# Every file of the system's MPI packages and of the libraries the bundle copied.
hidden_files=$(dpkg -L openmpi-bin libopenmpi3 libopenmpi-dev libpmix2 2>/dev/null | grep -E '^/usr/(bin|lib)/' || true)
for f in "$unpacked"/openmpi"$lib"/*.so.*; do hidden_files+=$'\n'$lib/${f##*/}; done
hide=""
for f in $(echo "$hidden_files" | sort -u); do
  [ -f "$f" ] && [ ! -L "$f" ] && hide+="mount --bind /dev/null $f; "
done
for d in /etc/openmpi /usr/share/openmpi "$lib/openmpi" "$lib/pmix2"; do  # (after the files in them)
  [ -d "$d" ] && hide+="mount -t tmpfs none $d; "
done
# shellcheck disable=SC2016  # expanded inside the namespace
unshare -m bash -c "set -e; $hide"'shift; . "$0/openmpi/env.sh"; "$@"' "$unpacked" _ "$@"
