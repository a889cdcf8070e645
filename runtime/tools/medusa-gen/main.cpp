// medusa-gen: make synthetic graphs, convert between formats, print graph statistics.
// All logic lives in medusa_io (medusa/io/gen_command.h).
#include <medusa/io/gen_command.h>

#include <iostream>

int main(int argc, char** argv) {
  return medusa::io::run_medusa_gen(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
