#!/usr/bin/env bash
# Makes a relocatable Open MPI (mpirun, libmpi, mpi.h, mpicc) from this machine's Debian packages,
# for machines that have no MPI and no network (the multi-GPU device machines): one host, shared
# memory and TCP between ranks. Writes <out-dir>/openmpi-bundle.tar.xz, which unpacks to openmpi/:
#   tar -xJf openmpi-bundle.tar.xz -C /opt && . /opt/openmpi/env.sh && mpirun -np 2 ./prog --distributed
# The tree mirrors Debian's paths (openmpi/usr/lib/x86_64-linux-gnu/openmpi/...) and env.sh points
# Open MPI and PMIx at it through OPAL_DESTDIR and PMIX_DESTDIR, which prefix every configured
# path, /etc/openmpi included. Dropped: Fortran, Java, OpenSHMEM, the internal headers, and the
# plugins for fabrics a single host lacks (UCX, libfabric, verbs, PSM), whose libraries are large.
#   scripts/make-mpi-bundle.sh <out-dir>       (needs openmpi-bin libopenmpi-dev; scripts/setup.sh)
set -euo pipefail
out=${1:?usage: scripts/make-mpi-bundle.sh <out-dir>}
packages=(openmpi-bin libopenmpi3 libopenmpi-dev openmpi-common libpmix2)
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    { echo "make-mpi-bundle: package $p is not installed (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 1; }
done
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
lib=/usr/lib/$arch
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/openmpi
mkdir -p "$root"

# What a C/C++ program on one host needs of the packages' files.
unwanted='^/usr/share/(doc|man|lintian)/|java|fortran|f08|f90|f77|mpifh|usempi|\.mod$|/mpif[-.a-z]*\.h$|\.a$'
unwanted+='|oshmem|/usr/bin/(osh|shmem)|/include/(p?shmem|mpp/|openshmem/)|ompitrace|profile2mat|aggregate_profile'
unwanted+='|/(osh|shmem)[^/]*-wrapper-data|totalview|mca_common_(ucx|ofi|verbs)|mca_reachable_netlink'
internal_headers='/include/openmpi/(opal|orte|ompi/|oshmem)'  # all but what mpi.h includes:
mpi_h_includes='/include/openmpi/(mpiext|ompi/mpi/cxx)/'
dpkg -L "${packages[@]}" | grep -vE "$unwanted" |
  awk -v drop="$internal_headers" -v keep="$mpi_h_includes" '$0 !~ drop || $0 ~ keep' | while read -r f; do
  # (not cp --parents -a: coreutils 9.1 fails on the parents' attributes)
  if [ -L "$f" ] || [ -f "$f" ]; then mkdir -p "$root${f%/*}" && cp -P --preserve=mode,timestamps "$f" "$root$f"; fi
done
# Plugins that load a library outside the bundle's set (fabrics, oshmem) would warn at every start.
plugins=$root$lib/openmpi/lib/openmpi3
for so in "$plugins"/*.so; do
  if grep -qE 'libuc[pstm]|libfabric|libibverbs|librdmacm|libpsm|libinfinipath|oshmem|libnl-|libmca_common_(ucx|ofi|verbs)' <<< "$(ldd "$so")"; then
    rm "$so"
  fi
done
# The commands Debian routes through /etc/alternatives.
bin=$root/usr/bin
for name in mpirun mpiexec; do ln -sf orterun "$bin/$name"; done
for name in mpicc mpicxx mpic++ mpiCC; do ln -sf opal_wrapper "$bin/$name"; done
rm -f "$bin"/*.openmpi
ln -sf libmpi.so.40 "$root$lib/libmpi.so"

# The shared libraries they load that a CUDA image may lack (hwloc, libevent, munge, ...), leaving
# out glibc, the compiler's runtime and zlib, which every such image has in a newer version.
system_libs='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libutil|libresolv|libgcc_s|libstdc\+\+|libz)\.'
find "$root" -type f \( -name '*.so*' -o -perm -u+x \) -print0 | xargs -0 file | grep -E 'ELF.*(shared|executable)' |
  cut -d: -f1 | { xargs ldd 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r soname path; do
    [[ $soname =~ $system_libs ]] && continue
    [ -e "$root$lib/$soname" ] || [ -e "$root$lib/openmpi/lib/$soname" ] && continue
    real=$(readlink -f "$path")
    cp "$real" "$root$lib/"
    [ "$(basename "$real")" = "$soname" ] || ln -sf "$(basename "$real")" "$root$lib/$soname"
  done
# (grep -q on a pipe would stop ldd early: with pipefail a match would read as a failure)
missing=$(find "$root" -type f -name '*.so*' -print0 | xargs -0 ldd 2>/dev/null | grep "not found" | sort -u || true)
[ -z "$missing" ] || { echo "make-mpi-bundle: libraries the bundle lacks:"$'\n'"$missing" >&2; exit 1; }

# Quiet about transports it has no use for; the host's own settings, if any, are not read.
cat > "$root/etc/openmpi/openmpi-mca-params.conf" <<'END'
btl_base_warn_component_unused = 0
END
# Debian's PMIx names its plugin folder by absolute path; env.sh names the bundle's instead.
echo "# mca_base_component_path: PMIX_MCA_mca_base_component_path in env.sh" > "$root$lib/pmix2/share/pmix-mca-params.conf"
cat > "$root/env.sh" <<END
# Source this (bash): the bundle's Open MPI on PATH, relocated to where it was unpacked.
_ompi=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export OPAL_DESTDIR=\$_ompi PMIX_DESTDIR=\$_ompi PMIX_MCA_mca_base_component_path=\$_ompi$lib/pmix2/lib/pmix
export PATH=\$_ompi/usr/bin:\$PATH
export LD_LIBRARY_PATH=\$_ompi$lib/openmpi/lib:\$_ompi$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
# For CMake's FindMPI: -DMPI_C_COMPILER=\$MPI_BUNDLE_MPICC (the wrapper knows the flags).
export MPI_BUNDLE_MPICC=\$_ompi/usr/bin/mpicc
# Open MPI refuses root without these; the device machines run everything as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset _ompi
END
dpkg-query -W -f='${Package} ${Version}\n' "${packages[@]}" > "$root/VERSIONS"
mkdir -p "$out"
tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cJf "$out/openmpi-bundle.tar.xz" openmpi
echo "make-mpi-bundle: $out/openmpi-bundle.tar.xz: $(du -h "$out/openmpi-bundle.tar.xz" | cut -f1)" \
     "($(du -sh "$root" | cut -f1) unpacked, glibc >= $(find "$root" -type f -print0 | xargs -0 objdump -T 2>/dev/null |
        grep -oE 'GLIBC_[0-9.]+' | sort -uV | tail -1 | cut -d_ -f2))"
