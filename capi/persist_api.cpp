// SPDX-License-Identifier: Apache-2.0
// persist_api.cpp -- the C entry points for files and buffers (format v1).
#include <string>

#include "bloom/bloom.h"
#include "format/file_io.hpp"
#include "format/header.hpp"
#include "format/memory_stream.hpp"
#include "format/serializer.hpp"
#include "guard.hpp"
#include "handle.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;
using bloom::capi::to_handle;
namespace core = bloom::core;

extern "C" {

bloom_status bloom_save(const bloom_filter *f, const char *path) {
  return guarded("bloom_save", [&] {
    require_arg(f, "filter");
    require_arg(path, "path");
    core::save_file(*to_core(f), path);
  });
}

bloom_status bloom_load(const char *path, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_load", [&] {
    require_arg(path, "path");
    require_arg(out, "out");
    *out = to_handle(core::load_file(path).release());
  });
}

bloom_status bloom_map(const char *path, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_map", [&] {
    require_arg(path, "path");
    require_arg(out, "out");
    *out = to_handle(core::map_file(path).release());
  });
}

bloom_status bloom_serialized_size(const bloom_filter *f, size_t *size) {
  return guarded("bloom_serialized_size", [&] {
    require_arg(f, "filter");
    require_arg(size, "size");
    const uint64_t n = core::serialized_size(*to_core(f));
    if (n > SIZE_MAX) core::fail(core::Status::kOverflow, "the image does not fit in size_t");
    *size = static_cast<size_t>(n);
  });
}

bloom_status bloom_serialize(const bloom_filter *f, void *buf, size_t cap, size_t *written) {
  return guarded("bloom_serialize", [&] {
    require_arg(f, "filter");
    require_arg(written, "written");
    *written = 0;
    if (buf == nullptr && cap != 0) core::fail(core::Status::kInvalidArg, "buf is NULL with a non-zero cap");
    const uint64_t need = core::serialized_size(*to_core(f));
    if (need > cap) {
      *written = static_cast<size_t>(need);
      core::fail(core::Status::kBufferTooSmall,
                 "buffer of " + std::to_string(cap) + " bytes, " + std::to_string(need) + " needed");
    }
    core::MemorySink sink(buf);
    core::serialize(*to_core(f), sink);
    *written = sink.written();
  });
}

bloom_status bloom_image_size(const void *prefix, size_t len, uint64_t *size, int32_t *kind, double *growth) {
  return guarded("bloom_image_size", [&] {
    require_arg(prefix, "prefix");
    require_arg(size, "size");
    if (len < BLOOM_IMAGE_PREFIX_SIZE)
      core::fail(core::Status::kBufferTooSmall, "the image's first " +
                                                    std::to_string(BLOOM_IMAGE_PREFIX_SIZE) +
                                                    " bytes are needed; got " + std::to_string(len));
    const core::ImagePrefix p = core::decode_image_prefix(static_cast<const unsigned char *>(prefix));
    *size = p.image_size;
    if (kind != nullptr) *kind = p.kind;
    if (growth != nullptr) *growth = p.growth;
  });
}

bloom_status bloom_deserialize(const void *buf, size_t len, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_deserialize", [&] {
    require_arg(out, "out");
    if (buf == nullptr && len != 0) core::fail(core::Status::kInvalidArg, "buf is NULL with a non-zero len");
    core::MemorySource src(buf, len);
    *out = to_handle(core::deserialize(src, len, false).release());
  });
}

}  // extern "C"
