// libFuzzer target for the graph readers. The first input byte picks the format (and options), the
// rest is the file. Anything but success or medusa::Error (a crash, another exception, a sanitizer
// report) is a bug.
#include <medusa/io/graph_file.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using medusa::io::Format;
  if (size == 0) return 0;
  static const Format kFormats[] = {Format::MatrixMarket, Format::Snap,   Format::Dimacs,
                                    Format::Metis,        Format::Binary, Format::Auto};
  medusa::io::ReadOptions options;
  // MEDUSA_FUZZ_FORMAT=0..5 pins the format (to spend a run on one parser); options still vary.
  static const char* forced = std::getenv("MEDUSA_FUZZ_FORMAT");
  const unsigned selector = forced ? static_cast<unsigned>(std::atoi(forced)) : (data[0] & 0x0Fu);
  options.format = kFormats[selector % 6];
  options.symmetrize = data[0] & 0x10;
  options.remove_self_loops = data[0] & 0x20;
  options.remove_duplicates = data[0] & 0x40;
  try {
    medusa::io::EdgeListData graph = medusa::io::read_graph_from_memory(data + 1, size - 1, "fuzz-input", options);
    // What a reader returns must be a consistent edge list.
    if (graph.dst.size() != graph.src.size()) __builtin_trap();
    if (!graph.weight.empty() && graph.weight.size() != graph.src.size()) __builtin_trap();
    for (std::size_t e = 0; e < graph.src.size(); ++e) {
      if (graph.src[e] >= graph.vertex_count || graph.dst[e] >= graph.vertex_count) __builtin_trap();
    }
  } catch (const medusa::Error&) {
    // Rejected input: the expected outcome for most fuzz inputs.
  }
  return 0;
}
