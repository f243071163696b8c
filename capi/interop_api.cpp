// SPDX-License-Identifier: Apache-2.0
// interop_api.cpp -- the C entry points for other systems' filter files
// (src/interop/foreign_codec.hpp).
#include <cstring>
#include <string>

#include "bloom/bloom.h"
#include "guard.hpp"
#include "handle.hpp"
#include "interop/foreign_codec.hpp"

using bloom::capi::guarded;
using bloom::capi::require_arg;
using bloom::capi::to_core;
using bloom::capi::to_handle;
namespace core = bloom::core;

namespace {

core::ForeignFormat checked_format(int format) {
  if (!core::is_valid_foreign_format(format))
    core::fail(core::Status::kInvalidArg, "unknown format " + std::to_string(format));
  return static_cast<core::ForeignFormat>(format);
}

}  // namespace

extern "C" {

bloom_status bloom_import(int format, const void *buf, size_t len, bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_import", [&] {
    require_arg(out, "out");
    if (buf == nullptr && len != 0) core::fail(core::Status::kInvalidArg, "buf is NULL with a non-zero len");
    const core::ForeignFormat f = checked_format(format);
    static const unsigned char kEmpty = 0;
    const auto *in = buf != nullptr ? static_cast<const unsigned char *>(buf) : &kEmpty;
    *out = to_handle(core::import_foreign(f, in, len).release());
  });
}

bloom_status bloom_import_parquet_column(const void *buf, size_t len, const char *column, uint32_t row_group,
                                         bloom_filter **out) {
  if (out != nullptr) *out = nullptr;
  return guarded("bloom_import_parquet_column", [&] {
    require_arg(out, "out");
    require_arg(column, "column");
    if (buf == nullptr && len != 0) core::fail(core::Status::kInvalidArg, "buf is NULL with a non-zero len");
    static const unsigned char kEmpty = 0;
    const auto *in = buf != nullptr ? static_cast<const unsigned char *>(buf) : &kEmpty;
    *out = to_handle(core::import_parquet_column(in, len, column, row_group).release());
  });
}

bloom_status bloom_export_size(const bloom_filter *f, int format, size_t *size) {
  return guarded("bloom_export_size", [&] {
    require_arg(f, "filter");
    require_arg(size, "size");
    const uint64_t n = core::foreign_export_size(*to_core(f), checked_format(format));
    if (n > SIZE_MAX) core::fail(core::Status::kOverflow, "the export does not fit in size_t");
    *size = static_cast<size_t>(n);
  });
}

bloom_status bloom_export(const bloom_filter *f, int format, void *buf, size_t cap, size_t *written) {
  return guarded("bloom_export", [&] {
    require_arg(f, "filter");
    require_arg(written, "written");
    *written = 0;
    if (buf == nullptr && cap != 0) core::fail(core::Status::kInvalidArg, "buf is NULL with a non-zero cap");
    const core::ForeignFormat fmt = checked_format(format);
    const uint64_t need = core::foreign_export_size(*to_core(f), fmt);
    if (need > cap) {
      *written = static_cast<size_t>(need);
      core::fail(core::Status::kBufferTooSmall,
                 "buffer of " + std::to_string(cap) + " bytes, " + std::to_string(need) + " needed");
    }
    core::export_foreign(*to_core(f), fmt, static_cast<unsigned char *>(buf));
    *written = static_cast<size_t>(need);
  });
}

const char *bloom_format_name(int format) {
  if (!core::is_valid_foreign_format(format)) return nullptr;
  return core::foreign_format_name(static_cast<core::ForeignFormat>(format));
}

int bloom_format_from_name(const char *name) {
  if (name == nullptr) return 0;
  for (int v = 1; core::is_valid_foreign_format(v); ++v)
    if (std::strcmp(core::foreign_format_name(static_cast<core::ForeignFormat>(v)), name) == 0) return v;
  return 0;
}

}  // extern "C"
