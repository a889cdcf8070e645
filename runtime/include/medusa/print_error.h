// What a program's main does with an error that ends it: say it, and exit 1. Pattern:
//
//   int main(int argc, char** argv) try {
//     ...
//   } catch (const std::exception& e) {
//     return medusa::print_error(e);
//   }
//
// Without it an uncaught medusa::Error aborts the program ("terminate called after throwing an
// instance of 'medusa::Error'", exit status 134).
#pragma once

#include <medusa/transport/mpi_job.h>

#include <cstdio>
#include <exception>

namespace medusa {

// Prints "error: <what()>" on stderr and returns 1, the exit status for main to return. A
// medusa::Error's what() starts with where it was found: the graph file and line for a bad input.
// In a distributed run of several ranks it prints "medusa: rank R: <what()>" and ends the whole
// job instead (transport::fail_job), so the other ranks do not wait for this one.
inline int print_error(const std::exception& e) {
  transport::fail_job(e.what());
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}

}  // namespace medusa
