// Replays every file of a fuzz corpus folder through the fuzz target, without libFuzzer, so that
// ordinary builds and CI keep the inputs that once crashed the parsers. Fails if the folder is
// missing or empty (a test that replays nothing proves nothing).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " CORPUS_FOLDER\n";
    return 2;
  }
  std::size_t replayed = 0;
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1], error)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (error) {
    std::cerr << argv[1] << ": " << error.message() << "\n";
    return 1;
  }
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::cerr << file << ": unexpected exception: " << e.what() << "\n";
      return 1;
    }
    ++replayed;
  }
  std::cout << "replayed " << replayed << " inputs from " << argv[1] << "\n";
  return replayed == 0 ? 1 : 0;
}
