// The medusa-gen command line (generate, convert, info), as a library function so that tests can
// run it and the tool's main() stays a one-liner.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace medusa::io {

// args excludes the program name. Returns the exit status: 0 success, 1 failed input or output
// (message on err), 2 usage error.
int run_medusa_gen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace medusa::io
