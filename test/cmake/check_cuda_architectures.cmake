# The CUDA program medusa_add_program makes is built for the architectures Medusa was built for
# (MEDUSA_ARCHITECTURES), not CMake's default, unless the project sets CMAKE_CUDA_ARCHITECTURES
# or passes CUDA_ARCHITECTURES.
include(${CMAKE_CURRENT_LIST_DIR}/configure_project.cmake)

medusa_test_configure(${WORK_DIR}/unset -DWITH_CUDA=ON)
if(NOT configure_rc EQUAL 0)
  message(FATAL_ERROR "configuring the CUDA project failed:\n${configure_output}")
endif()
medusa_test_expect("${configure_output}"
  "medusa-test: target by_default CUDA_ARCHITECTURES=${MEDUSA_ARCHITECTURES}\n" "no CMAKE_CUDA_ARCHITECTURES")
medusa_test_expect("${configure_output}"
  "medusa-test: target chosen CUDA_ARCHITECTURES=86\n" "CUDA_ARCHITECTURES 86")

medusa_test_configure(${WORK_DIR}/user -DWITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=80)
if(NOT configure_rc EQUAL 0)
  message(FATAL_ERROR "configuring the CUDA project failed:\n${configure_output}")
endif()
medusa_test_expect("${configure_output}"
  "medusa-test: target by_default CUDA_ARCHITECTURES=80\n" "CMAKE_CUDA_ARCHITECTURES=80")
medusa_test_expect("${configure_output}"
  "medusa-test: target chosen CUDA_ARCHITECTURES=86\n" "CUDA_ARCHITECTURES 86 over the project's 80")
