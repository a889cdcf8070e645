#include "byte_source.h"

#include <medusa/error.h>

#include <lzma.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <sys/stat.h>

namespace medusa::io::detail {
namespace {

constexpr std::size_t kCompressedChunk = 1 << 20;

class FileSource final : public ByteSource {
 public:
  FileSource(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {
    struct stat info;
    if (::fstat(::fileno(file_), &info) == 0 && S_ISREG(info.st_mode)) size_ = static_cast<std::uint64_t>(info.st_size);
  }
  ~FileSource() override { std::fclose(file_); }
  std::size_t read(char* destination, std::size_t capacity) override {
    std::size_t got = std::fread(destination, 1, capacity, file_);
    if (got == 0 && std::ferror(file_)) throw InputFailure("read error: " + std::string(std::strerror(errno)));
    position_ += got;
    return got;
  }
  std::uint64_t remaining() const override {
    return size_ == kUnknownSize || position_ > size_ ? kUnknownSize : size_ - position_;
  }

 private:
  std::FILE* file_;
  std::string path_;
  std::uint64_t size_ = kUnknownSize;
  std::uint64_t position_ = 0;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(const void* data, std::size_t size)
      : data_(static_cast<const char*>(data)), size_(size) {}
  std::size_t read(char* destination, std::size_t capacity) override {
    std::size_t n = std::min(capacity, size_ - position_);
    if (n) std::memcpy(destination, data_ + position_, n);
    position_ += n;
    return n;
  }
  std::uint64_t remaining() const override { return size_ - position_; }

 private:
  const char* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

// Returns `prefix` first, then the rest of `inner`: lets us peek at magic bytes.
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  std::size_t read(char* destination, std::size_t capacity) override {
    if (position_ < prefix_.size()) {
      std::size_t n = std::min(capacity, prefix_.size() - position_);
      std::memcpy(destination, prefix_.data() + position_, n);
      position_ += n;
      return n;
    }
    return inner_->read(destination, capacity);
  }
  std::uint64_t remaining() const override {
    std::uint64_t rest = inner_->remaining();
    return rest == kUnknownSize ? kUnknownSize : rest + (prefix_.size() - position_);
  }

 private:
  std::string prefix_;
  std::size_t position_ = 0;
  std::unique_ptr<ByteSource> inner_;
};

class XzSource final : public ByteSource {
 public:
  explicit XzSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), input_(kCompressedChunk) {
    // LZMA_CONCATENATED: files made by joining .xz streams decode as one, as xz(1) does.
    if (lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
      throw InputFailure("cannot initialise the xz decoder");
    }
  }
  ~XzSource() override { lzma_end(&stream_); }

  std::size_t read(char* destination, std::size_t capacity) override {
    if (finished_ || capacity == 0) return 0;
    stream_.next_out = reinterpret_cast<std::uint8_t*>(destination);
    stream_.avail_out = capacity;
    while (stream_.avail_out == capacity) {
      if (stream_.avail_in == 0 && !input_ended_) {
        std::size_t got = inner_->read(reinterpret_cast<char*>(input_.data()), input_.size());
        stream_.next_in = input_.data();
        stream_.avail_in = got;
        if (got == 0) input_ended_ = true;
      }
      lzma_ret status = lzma_code(&stream_, input_ended_ ? LZMA_FINISH : LZMA_RUN);
      if (status == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (status == LZMA_OK) continue;
      if (status == LZMA_BUF_ERROR) throw InputFailure("xz stream is truncated");
      if (status == LZMA_MEM_ERROR) throw InputFailure("out of memory decompressing xz");
      throw InputFailure("xz stream is corrupt (liblzma error " + std::to_string(status) + ")");
    }
    return capacity - stream_.avail_out;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::vector<std::uint8_t> input_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  bool input_ended_ = false;
  bool finished_ = false;
};

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), input_(kCompressedChunk) {
    std::memset(&stream_, 0, sizeof stream_);
    if (inflateInit2(&stream_, 15 + 16) != Z_OK) throw InputFailure("cannot initialise the gzip decoder");
  }
  ~GzipSource() override { inflateEnd(&stream_); }

  std::size_t read(char* destination, std::size_t capacity) override {
    if (capacity == 0) return 0;
    const uInt want = static_cast<uInt>(std::min<std::size_t>(capacity, 1u << 30));
    stream_.next_out = reinterpret_cast<Bytef*>(destination);
    stream_.avail_out = want;
    while (stream_.avail_out == want) {
      if (stream_.avail_in == 0) {
        if (input_ended_) {
          if (in_member_) throw InputFailure("gzip stream is truncated");
          break;
        }
        std::size_t got = inner_->read(reinterpret_cast<char*>(input_.data()), input_.size());
        stream_.next_in = input_.data();
        stream_.avail_in = static_cast<uInt>(got);
        if (got == 0) {
          input_ended_ = true;
          continue;
        }
      }
      int status = inflate(&stream_, Z_NO_FLUSH);
      in_member_ = true;
      if (status == Z_STREAM_END) {
        // gzip files may hold several members one after another (cat a.gz b.gz).
        in_member_ = false;
        if (inflateReset(&stream_) != Z_OK) throw InputFailure("gzip decoder failed to reset");
        continue;
      }
      if (status == Z_OK) continue;
      if (status == Z_BUF_ERROR) {
        if (stream_.avail_in == 0) continue;  // needs more input
        throw InputFailure("gzip stream is truncated");
      }
      if (status == Z_MEM_ERROR) throw InputFailure("out of memory decompressing gzip");
      throw InputFailure(std::string("gzip stream is corrupt (") + (stream_.msg ? stream_.msg : "zlib error") + ")");
    }
    return want - stream_.avail_out;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::vector<Bytef> input_;
  z_stream stream_;
  bool input_ended_ = false;
  bool in_member_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> open_file_source(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw ::medusa::Error(std::string("cannot open: ") + std::strerror(errno), path.c_str(), 0);
  return std::make_unique<FileSource>(file, path);
}

std::unique_ptr<ByteSource> memory_source(const void* data, std::size_t size) {
  return std::make_unique<MemorySource>(data, size);
}

std::unique_ptr<ByteSource> prefixed_source(std::string prefix, std::unique_ptr<ByteSource> inner) {
  return std::make_unique<PrefixedSource>(std::move(prefix), std::move(inner));
}

std::unique_ptr<ByteSource> decompressing(std::unique_ptr<ByteSource> raw, Compression* detected) {
  std::string magic(6, '\0');
  std::size_t have = 0;
  while (have < magic.size()) {
    std::size_t got = raw->read(&magic[have], magic.size() - have);
    if (got == 0) break;
    have += got;
  }
  magic.resize(have);
  Compression kind = Compression::None;
  if (have == 6 && std::memcmp(magic.data(), "\xFD" "7zXZ\0", 6) == 0) kind = Compression::Xz;
  else if (have >= 2 && static_cast<unsigned char>(magic[0]) == 0x1F && static_cast<unsigned char>(magic[1]) == 0x8B)
    kind = Compression::Gzip;
  if (detected) *detected = kind;
  auto source = std::make_unique<PrefixedSource>(std::move(magic), std::move(raw));
  switch (kind) {
    case Compression::Xz: return std::make_unique<XzSource>(std::move(source));
    case Compression::Gzip: return std::make_unique<GzipSource>(std::move(source));
    case Compression::None: break;
  }
  return source;
}

}  // namespace medusa::io::detail
