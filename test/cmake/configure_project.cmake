# medusa_test_configure(<build dir> [cmake -D options...]): configures test/cmake/configure against
# the installed Medusa in PREFIX; sets `configure_rc` and `configure_output` (stdout + stderr).
set(medusa_test_project ${CMAKE_CURRENT_LIST_DIR}/configure)
function(medusa_test_configure build)
  file(REMOVE_RECURSE ${build})
  # CMake's default architectures are under test: none may come from the environment.
  set(ENV{CUDAARCHS} "")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${medusa_test_project} -B ${build} -G ${GENERATOR}
            --no-warn-unused-cli -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release
            -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(configure_rc ${rc} PARENT_SCOPE)
  set(configure_output "${out}${err}" PARENT_SCOPE)
endfunction()

# Fails the test unless `text` contains `needle` (a plain string, not a regex). CMake wraps the
# lines of warnings and errors, so any run of whitespace matches any other.
function(medusa_test_expect text needle what)
  string(REGEX REPLACE "[ \t\r\n]+" " " flat_text "${text}")
  string(REGEX REPLACE "[ \t\r\n]+" " " flat_needle "${needle}")
  string(FIND "${flat_text}" "${flat_needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: expected \"${needle}\" in:\n${text}")
  endif()
endfunction()
