#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/{gen,kit,mpi} present.)
# MPI + NCCL ranks, one per GPU, on a machine of several GPUs that has no MPI (issues #29, #31):
# the Open MPI bundle of scripts/make-mpi-bundle.sh (.carry/mpi/openmpi-bundle.tar.xz) and NCCL
# from python3's nvidia-nccl wheel. In phases, each one device call on a machine kept warm:
#   PHASE=build     unpack the bundle, configure with MPI and NCCL, build the samples that run ranks
#   PHASE=validate  each such sample --validate on kron-16 over 2 and 4 ranks (COUNTS; one GPU
#                   each), with NCCL and with MEDUSA_NCCL=0 (staged through host memory), and its
#                   output against one process on as many GPUs
#   PHASE=ctest     the ctests of labels gpu and mpi (two ranks sharing one GPU, staged), TESTS=regex
#   PHASE=graphs    Kronecker SCALE (the argument, or SCALE; default 24) and its partition files
#   PHASE=time      PageRank (20 iterations) and BFS-Q (SAMPLES) on it: one GPU, in-process
#                   --gpus 2 and 4, and 2 and 4 ranks over NCCL (and staged with STAGED=1), best of
#                   RUNS (1); at scale 24 each run's set-up takes about a minute, so one sample a call
#   PHASE=all       build, validate, graphs and time in turn (SCALE=20 for a smoke run in one call)
#   PHASE=time SAMPLES=bfs_q RUNS=2 bash bench/device/ranks-run.sh 25
# COUNTS ("2 4" where the GPUs are there) picks the rank and partition counts of every phase.
# Rank counts above the GPUs present are skipped. Logs go to $OUT; each phase prints a summary.
# A dry run of validate/graphs/time without GPUs: BUILD=<host build with MPI> SUFFIX=_host GPUS=4
# MPIRUN_ARGS=--oversubscribe.
set -uo pipefail
root=$PWD kit=$root/.carry/kit b=${BUILD:-$root/build-ranks} g=/tmp/ranks-graphs mpi=/tmp/openmpi
logs=/tmp/ranks-logs  # (per-run logs: $OUT brings back only 8 files, so they go back as one tarball)
scale=${1:-${SCALE:-24}} runs=${RUNS:-1}
out=${OUT:-/tmp/ranks-out}
mkdir -p "$g" "$out"
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }
# NVLink multicast can put the host's GPUs out of service (KINDS.md): off in every rank.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# A rank that waits on the others longer than this in an MPI exchange or reduction ends the job,
# naming itself (a rank stuck in NCCL leaves the others waiting in the next reduction).
export MEDUSA_COLLECTIVE_TIMEOUT=${MEDUSA_COLLECTIVE_TIMEOUT:-60} OMP_WAIT_POLICY=PASSIVE
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}  # (a failed NCCL call then says why in the rank's log)

nccl_root=$(python3 -c "import nvidia.nccl as n; print(list(n.__path__)[0])" 2>/dev/null)
if [ ! -x $mpi/usr/bin/mpirun ]; then
  [ -f .carry/mpi/openmpi-bundle.tar.xz ] || { echo "no Open MPI bundle in .carry/mpi (scripts/make-mpi-bundle.sh)"; exit 1; }
  tar -C /tmp -xJf .carry/mpi/openmpi-bundle.tar.xz 2> /dev/null ||  # (python3 where xz is missing)
    python3 -c "import tarfile; tarfile.open('.carry/mpi/openmpi-bundle.tar.xz').extractall('/tmp')" || exit 1
fi
# shellcheck disable=SC1091
. $mpi/env.sh
export LD_LIBRARY_PATH=$kit/lib${nccl_root:+:$nccl_root/lib}:$LD_LIBRARY_PATH
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
# Every rank keeps the environment above (-x); --bind-to none: a rank's host threads (graph load,
# the CPU reference of --validate) would otherwise share one core.
launch() {
  local n=$1; shift
  # shellcheck disable=SC2086  # (MPIRUN_ARGS: more options, e.g. --oversubscribe for a dry run)
  timeout -k 20 "$step_timeout" mpirun -np "$n" --bind-to none ${MPIRUN_ARGS:-} -x NCCL_NVLS_ENABLE \
    -x NCCL_DEBUG -x LD_LIBRARY_PATH -x MEDUSA_COLLECTIVE_TIMEOUT -x MEDUSA_NCCL -x OMP_WAIT_POLICY "$@"
}
step_timeout=${STEP_TIMEOUT:-300}
rank_counts() { for n in 2 4; do [ "$n" -le "$gpus" ] && echo "$n"; done; }

build() {
  [ -n "$nccl_root" ] || { echo "python3 has no nvidia.nccl (the nvidia-nccl-cu13 wheel)"; return 1; }
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  echo "glibc $(ldd --version | head -1 | grep -oE '[0-9.]+$') (the bundle needs 2.36), $(mpirun --version | head -1), NCCL at $nccl_root"
  mpirun -np 2 --oversubscribe sh -c 'echo "rank $OMPI_COMM_WORLD_RANK"' > "$out/mpi-check.log" 2>&1 || { echo "the bundle's mpirun fails:"; tail -20 "$out/mpi-check.log"; return 1; }
  # shellcheck disable=SC2206  # (paths without blanks, as in session-check.sh)
  local args=(-G Ninja -DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen -DCMAKE_BUILD_TYPE=Release
        -DMEDUSA_BUILD_BENCH=OFF -DCatch2_DIR=$kit/lib/cmake/Catch2 -DMEDUSA_GRAPH_DIR=$root/.carry/graphs
        -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a
        -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a -DMETIS_INCLUDE_DIR=$kit/include
        -DMETIS_LIBRARY=$kit/lib/libmetis.so -DMEDUSA_ENABLE_MPI=ON -DMPI_C_COMPILER=$MPI_BUNDLE_MPICC
        -DMEDUSA_ENABLE_NCCL=ON -DNCCL_ROOT=$nccl_root)
  timeout 300 cmake -S . -B $b "${args[@]}" > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; return 1; }
  grep -E "Medusa: (MPI|NCCL)" "$out/configure.log"
  # (only what the phases run: the tests' own programs are not built, so PHASE=ctest runs the
  # sample ctests alone)
  timeout 480 cmake --build $b -j "$(nproc)" --target "${samples[@]}" pagerank_vertex_loops medusa-gen medusa-part > "$out/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$out/build.log" | head -20; echo "(a timeout: PHASE=build again goes on)"; return 1; }
  echo "built in $(elapsed)"
}

# The samples that run over ranks, with their inputs: kron-20 (symmetric) unless the sample
# generates its own graph.
samples=(pagerank sssp sssp_q bfs_n bfs_q cc cc_lp infoprop drilldown kcore hits triangles matching layout)
[ -n "${SAMPLES:-}" ] && read -r -a samples <<< "$SAMPLES"
input_of() {
  case $1 in
    matching) echo "--scale 18" ;;
    layout) echo "--scale 10" ;;
    *) echo "$g/kron16.medusa-bin" ;;  # (small: each run partitions it with METIS)
  esac
}

# Each sample over n ranks with NCCL, then staged, each --validate'd; both must also write what
# one process writes on n GPUs (the same partitions: a distributed run equals it bit for bit).
validate() {
  [ -f $g/kron16.medusa-bin ] || timeout 300 $b/bin/medusa-gen kron --scale 16 --symmetric --seed 1 -o $g/kron16.medusa-bin > /dev/null
  rm -rf "$logs" && mkdir -p "$logs"
  step_timeout=${STEP_TIMEOUT:-120}  # (a kron-16 run takes seconds)
  local nccl_hung=""
  for n in ${COUNTS:-$(rank_counts)}; do
    for s in "${samples[@]}"; do
      local exe=$b/samples/$s${SUFFIX:-} at=$logs/$s-$n
      # shellcheck disable=SC2046  # (input_of gives a path or options)
      timeout 300 "$exe" $(input_of "$s") --gpus "$n" --output "$at-one.txt" > "$at-one.log" 2>&1
      for transport in nccl staged; do
        [ $transport = nccl ] && [ -n "$nccl_hung" ] && { echo "$s np=$n nccl: skipped ($nccl_hung timed out)"; continue; }
        local use_nccl=1
        [ $transport = staged ] && use_nccl=0
        # shellcheck disable=SC2046
        MEDUSA_NCCL=$use_nccl launch "$n" "$exe" $(input_of "$s") --distributed --validate --verbose \
          --output "$at-$transport.txt" > "$at-$transport.log" 2>&1
        local rc=$? same="SAME as"
        [ $transport = nccl ] && { [ $rc = 124 ] || [ $rc = 137 ]; } && nccl_hung="$s np=$n"  # (timeout)
        cmp -s "$at-one.txt" "$at-$transport.txt" || same="DIFFERENT from"
        echo "$s np=$n $transport (exit $rc): $(grep -E "validation: |error|abort|^medusa: rank [0-9]+: [^0-9]" "$at-$transport.log" | sort -u | head -3 | tr '\n' ' ')" \
             "$(sed -nE 's/.*(between ranks (NCCL device to device|staged through [^,]*)).*/\1/p' "$at-$transport.log" | head -1);" \
             "output $same one process on $n GPUs"
      done
    done
  done 2>&1 | tee "$out/validate.log" | grep -vE "\(exit 0\): validation: PASSED .*SAME as" | head -40
  echo "validations passed: $(grep -c 'validation: PASSED' "$out/validate.log") of $(wc -l < "$out/validate.log") runs;" \
       "output as one process's: $(grep -c 'output SAME' "$out/validate.log");" \
       "NCCL between ranks in $(grep -c 'nccl .*NCCL device to device' "$out/validate.log")," \
       "staged in $(grep -c 'staged .*staged through' "$out/validate.log")"
  tar -C "${logs%/*}" -cJf "$out/validate-logs.tar.xz" --exclude='*.txt' "${logs##*/}"
  echo "validate in $(elapsed)"
}

# Best of $runs: the summary line of the fastest run, then its per-rank and exchange lines.
best_of() {
  local label=$1 s=$2; shift 2
  local best="" keep=""
  for ((r = 0; r < runs; ++r)); do
    local log
    log=$("$@" 2>&1)
    echo "$log" >> "$out/time-raw.log"
    local line ms
    line=$(echo "$log" | grep -E "^$s: [0-9]+ supersteps, " | head -1)
    ms=$(echo "$line" | sed -E 's/.*supersteps, ([0-9.]+) ms.*/\1/')
    [ -z "$ms" ] && { echo "$label: failed: $(echo "$log" | grep -iE 'error|abort|timeout' | head -2 | tr '\n' ' ')"; continue; }
    if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then
      best=$ms keep=$(echo "$log" | grep -E "^$s: " | sed "s/^/    /")
    fi
  done
  [ -n "$best" ] && { echo "$label: $best ms"; echo "$keep"; }
}

run_ctests() {
  ctest --test-dir $b -L gpu -L mpi ${TESTS:+-R "$TESTS"} --output-on-failure --timeout 240 > "$out/ctest.log" 2>&1
  grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Not Run|\*\*\*" "$out/ctest.log" | head -30
  echo "ctest in $(elapsed)"
}

graphs() {
  local graph=$g/kron$scale.medusa-bin
  [ -f "$graph" ] || timeout 540 $b/bin/medusa-gen kron --scale "$scale" --symmetric --seed 1 -o "$graph" > /dev/null ||
    { echo "medusa-gen kron --scale $scale failed or timed out"; return 1; }
  echo "graph at $(elapsed)"
  for n in ${COUNTS:-$(rank_counts)}; do  # (the same cut for the in-process partitions and the ranks)
    [ -f $g/kron$scale.part.$n ] || timeout 540 $b/bin/medusa-part "$graph" -k "$n" -o $g/kron$scale.part.$n > "$out/part-$n.log" 2>&1 ||
      { echo "medusa-part -k $n failed or timed out"; return 1; }
    grep -iE "cut|balance|method" "$out/part-$n.log" | head -3
  done
  echo "partitions at $(elapsed)"
}

time_runs() {
  local graph=$g/kron$scale.medusa-bin
  local first_count
  first_count=$(echo ${COUNTS:-$(rank_counts)} | cut -d' ' -f1)
  if [ ! -f "$graph" ] || { [ -n "$first_count" ] && [ ! -f $g/kron$scale.part.$first_count ]; }; then graphs || return 1; fi
  for s in ${SAMPLES:-pagerank bfs_q}; do
    local exe=$b/samples/$s${SUFFIX:-}
    local extra="${SEARCH_ARGS:-}"  # (e.g. SEARCH_ARGS="--source V" where vertex 0 is isolated)
    [ $s = pagerank ] && extra="--iterations 20"
    # shellcheck disable=SC2086
    best_of "$s 1 GPU" $s timeout 300 "$exe" "$graph" $extra
    for n in ${COUNTS:-$(rank_counts)}; do
      local part="--partition-file $g/kron$scale.part.$n"
      # shellcheck disable=SC2086
      best_of "$s --gpus $n (one process)" $s timeout 300 "$exe" "$graph" $extra --gpus $n $part
      # shellcheck disable=SC2086
      MEDUSA_NCCL=1 best_of "$s $n ranks, NCCL" $s launch $n "$exe" "$graph" $extra --distributed $part
      # shellcheck disable=SC2086
      [ "${STAGED:-0}" = 1 ] && MEDUSA_NCCL=0 best_of "$s $n ranks, staged" $s launch $n "$exe" "$graph" $extra --distributed $part
    done
    echo "$s done at $(elapsed)"
  done 2>&1 | tee "$out/time.log"
}

case ${PHASE:?PHASE=build, validate, ctest, graphs, time or all} in
  build) build ;;
  validate) validate ;;
  ctest) run_ctests ;;
  graphs) graphs ;;
  time) time_runs ;;
  all) build && validate && graphs && time_runs ;;
  *) echo "PHASE=$PHASE: build, validate, ctest, graphs, time or all"; exit 2 ;;
esac
