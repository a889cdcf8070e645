# ctest driver: translate INPUT for CUDA and compile the .cu with nvcc -c (no GPU needed).
get_filename_component(stem ${INPUT} NAME_WE)
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
execute_process(COMMAND ${MEDUSA_CC} --backend=cuda -o ${OUT_DIR} ${INPUT} --
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "medusa-cc failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${NVCC} -std=c++17 -arch=sm_${ARCH} -I${INCLUDE_DIR} -c
                        ${OUT_DIR}/${stem}.medusa.cu -o ${OUT_DIR}/${stem}.o
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${stem}.medusa.cu (${rc}):\n${out}${err}")
endif()
