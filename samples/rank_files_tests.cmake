# Distributed runs from per-rank partition files (docs/multi-gpu.md, "Partition files per rank"),
# included by samples/CMakeLists.txt when MPI is built in (`mpirun` and the test environment come
# from there). No rank reads the whole graph: each sample whose main builds its graph from the
# edges alone (samples::EdgeUse::GraphOnly) runs from the files over 2 and 3 ranks and writes what
# one process writes on the graph file, bit for bit. And the errors: a job of more ranks than the
# files, a file of another graph, another rank's file, a sample that reads the whole graph, more
# hops or partitions than the files hold, files without the whole out-rows an in-edge functor
# needs (hits: its files are made with --in-edges), --validate.
set(rank_dir ${CMAKE_CURRENT_BINARY_DIR}/rank-files)
add_test(NAME sample.mpi.rank-files.make
  COMMAND ${CMAKE_COMMAND} -DDIR=${rank_dir} -DMEDUSA_GEN=$<TARGET_FILE:medusa-gen>
    -DMEDUSA_PART=$<TARGET_FILE:medusa-part> -P ${CMAKE_CURRENT_SOURCE_DIR}/common/make_rank_files.cmake)
set_tests_properties(sample.mpi.rank-files.make PROPERTIES FIXTURES_SETUP mpi_rank_files)
set(rank_file_tests sample.mpi.rank-files.make)

foreach(sample pagerank bfs_q bfs_n sssp sssp_q hits)
  set(prefix rmat10)
  if(sample STREQUAL "hits")  # (an in-edge functor: files with whole out-rows)
    set(prefix rmat10-in)
  endif()
  foreach(backend host cuda)
    sample_target(${sample} ${backend} target labels)
    if(NOT TARGET ${target} OR NOT Python3_FOUND)
      continue()
    endif()
    # (CUDA: the lead's GPU check, the two ranks' partitions on one GPU, as ctest -L gpu has one)
    set(rank_counts 2 3)
    set(one_gpu)
    if(backend STREQUAL "cuda")
      set(rank_counts 2)
      set(one_gpu --one-gpu)
    endif()
    foreach(ranks IN LISTS rank_counts)
      set(test sample.${sample}.${backend}.rank-files-${ranks})
      add_test(NAME ${test}
        COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/common/compare_runs.py
          --sample $<TARGET_FILE:${target}> --ranks ${ranks} --mpirun ${MPIEXEC_EXECUTABLE}
          --graph ${rank_dir}/rmat10.mtx --rank-files ${rank_dir}/${prefix} ${one_gpu})
      set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED mpi_rank_files LABELS "${labels};mpi"
        PROCESSORS ${ranks} TIMEOUT 120 ENVIRONMENT "${medusa_mpi_test_environment}")
      if(backend STREQUAL "host")
        list(APPEND rank_file_tests ${test})
      endif()
    endforeach()
  endforeach()
endforeach()

set(fault_script ${CMAKE_CURRENT_SOURCE_DIR}/common/expect_job_failure.cmake)
set(rank_file_faults
  "too-many-ranks|4|rmat10|pagerank_host|medusa: rank [0-9]: [^\n]*rmat10.[0-3]-of-4:0: rank [0-3] of 4 cannot open its partition file[^\n]*there is [^\n]*rmat10.0-of-[23]: the files were made for another number of ranks"
  "other-graph|2|mixed|pagerank_host|medusa: rank 0: [^\n]*rank 1's partition file [^\n]*mixed.1-of-2 was made from another graph than rank 0's"
  "swapped|2|swapped|bfs_q_host|medusa: rank 0: [^\n]*swapped.0-of-2:0: the file was made for rank 1 of 2 ranks, and rank 0 of 2 reads it"
  "whole-graph-sample|2|rmat10|kcore_host|medusa: rank [01]: --partition-files: kcore_host reads the whole graph's edges"
  "two-hops|2|rmat10|pagerank_host|medusa: rank [01]: [^\n]*the files hold one hop of replicas, and Config::replicationHops asks for 2|--replication-hops|2"
  "in-edges-without-rows|2|rmat10|hits_host|medusa: rank [01]: [^\n]*holds no whole out-rows, which the program's ELIST functor over in-edges \\(InEdgeList\\) needs: make the files with medusa-part --rank-files ... --in-edges"
  "partitions-per-rank|2|rmat10|pagerank_host|medusa: rank [01]: [^\n]*the files hold one partition per rank. Config::gpuCount asks for 4 partitions over 2 ranks|--gpus|4")
foreach(fault IN LISTS rank_file_faults)
  string(REPLACE "|" ";" fault "${fault}")
  list(POP_FRONT fault name ranks prefix target message)
  set(extra ${fault})  # (what is left: more options)
  if(NOT TARGET ${target})
    continue()
  endif()
  set(test sample.mpi.rank-files.${name})
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND}
      "-DCOMMAND=${mpirun};-np;${ranks};$<TARGET_FILE:${target}>;--partition-files;${rank_dir}/${prefix};--distributed;${extra}"
      "-DMESSAGE=${message}" -DSECONDS=30 -P ${fault_script})
  set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED mpi_rank_files
    ENVIRONMENT "${medusa_mpi_test_environment}")
  list(APPEND rank_file_tests ${test})
endforeach()

add_test(NAME sample.cli.partition-files-validate
  COMMAND pagerank_host --partition-files ${rank_dir}/rmat10 --distributed --validate)
set_tests_properties(sample.cli.partition-files-validate PROPERTIES
  PASS_REGULAR_EXPRESSION "--partition-files: --validate needs the whole graph on rank 0: compare --output with a one-process run's")
list(APPEND rank_file_tests sample.cli.partition-files-validate)
set_tests_properties(${rank_file_tests} PROPERTIES LABELS "samples;host;mpi" TIMEOUT 60)
