# ctest driver: the superstep plans medusa-cc reports for a sample (--emit-model's "superstep_plans")
# equal <plans dir>/<stem>.plan.json.expected.
#   -DMEDUSA_CC=... -DINPUT=<sample .cpp> -DEXPECTED=<file> -DINCLUDE=<dir the sample includes from>
execute_process(COMMAND ${MEDUSA_CC} --emit-model ${INPUT} -- -I${INCLUDE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE model ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "medusa-cc --emit-model failed (${rc}):\n${err}")
endif()
string(JSON plans GET "${model}" superstep_plans)
file(READ ${EXPECTED} want)
string(JSON same EQUAL "${plans}" "${want}")
if(NOT same)
  message(FATAL_ERROR "the superstep plans of ${INPUT} differ from ${EXPECTED} (run "
                      "scripts/update-golden.sh after checking the change):\n--- got\n${plans}\n--- expected\n${want}")
endif()
