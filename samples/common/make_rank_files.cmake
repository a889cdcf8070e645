# ctest fixture of the partition-files tests: in DIR, a weighted R-MAT graph (rmat10.mtx) and its
# per-rank partition files for 2 ranks (contiguous) and 3 (METIS when built in), the same with the
# owned vertices' whole out-rows for in-edge functors (rmat10-in: --in-edges), and the bad sets
# the error tests read: `mixed` (rank 1's file from another graph) and `swapped` (rank 0 has rank
# 1's file).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}${err}")
  endif()
endfunction()
file(MAKE_DIRECTORY ${DIR})
run(${MEDUSA_GEN} rmat --scale 10 --weights 1:255 -o ${DIR}/rmat10.mtx)
run(${MEDUSA_PART} ${DIR}/rmat10.mtx -k 2 --method contiguous --rank-files ${DIR}/rmat10)
run(${MEDUSA_PART} ${DIR}/rmat10.mtx -k 3 --rank-files ${DIR}/rmat10)
run(${MEDUSA_PART} ${DIR}/rmat10.mtx -k 2 --method contiguous --rank-files ${DIR}/rmat10-in --in-edges)
run(${MEDUSA_PART} ${DIR}/rmat10.mtx -k 3 --rank-files ${DIR}/rmat10-in --in-edges)
run(${MEDUSA_GEN} rmat --scale 10 --seed 2 --weights 1:255 -o ${DIR}/other.mtx)
run(${MEDUSA_PART} ${DIR}/other.mtx -k 2 --method contiguous --rank-files ${DIR}/mixed)
file(COPY_FILE ${DIR}/rmat10.0-of-2 ${DIR}/mixed.0-of-2)
file(COPY_FILE ${DIR}/rmat10.1-of-2 ${DIR}/swapped.0-of-2)
file(COPY_FILE ${DIR}/rmat10.1-of-2 ${DIR}/swapped.1-of-2)
