# medusa_add_program in a project that does not enable CUDA, against a Medusa built with CUDA:
# the default backends warn and still make the host program, `BACKENDS host` stays silent, an
# explicit `BACKENDS cuda` is a configure error. Each message gives the line to add.
include(${CMAKE_CURRENT_LIST_DIR}/configure_project.cmake)

medusa_test_configure(${WORK_DIR}/default)
set(out "${configure_output}")
if(NOT configure_rc EQUAL 0)
  message(FATAL_ERROR "the default backends must only warn, but configuring failed:\n${out}")
endif()
medusa_test_expect("${out}" "CMake Warning at" "default backends")
medusa_test_expect("${out}" "medusa_add_program(by_default): the CUDA program 'by_default' needs the CUDA" "default backends")
medusa_test_expect("${out}" "only by_default_host is made" "default backends")
medusa_test_expect("${out}" "enable_language(CUDA)" "default backends")
medusa_test_expect("${out}" "LANGUAGES CXX CUDA" "default backends")
medusa_test_expect("${out}" "medusa-test: target by_default_host" "default backends")
medusa_test_expect("${out}" "medusa-test: target host_only_host" "BACKENDS host")
string(FIND "${out}" "medusa_add_program(host_only)" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "BACKENDS host must configure silently:\n${out}")
endif()

medusa_test_configure(${WORK_DIR}/explicit -DEXPLICIT_CUDA=ON)
if(configure_rc EQUAL 0)
  message(FATAL_ERROR "an explicit BACKENDS cuda without the CUDA language must fail:\n${configure_output}")
endif()
medusa_test_expect("${configure_output}" "CMake Error at" "BACKENDS cuda")
medusa_test_expect("${configure_output}" "medusa_add_program(cuda_only): the CUDA program 'cuda_only' needs the CUDA" "BACKENDS cuda")
medusa_test_expect("${configure_output}" "enable_language(CUDA)" "BACKENDS cuda")
