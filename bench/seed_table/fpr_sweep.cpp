// SPDX-License-Identifier: Apache-2.0
#include "fpr_sweep.hpp"

#include <cstdio>
#include <fstream>
#include <vector>

#include "../common/keys.hpp"
#include "bloom/bloom.h"

namespace bloom_bench {

int run_fpr_sweep(const std::string &path, uint64_t n) {
  // 10 n negatives: at p = 1e-4 and n = 10^5 that is 100 expected false
  // positives, a relative standard error of 10%.
  KeySet pos, neg;
  make_distinct_keys(7, {&pos, &neg}, {n, 10 * n});
  std::ofstream out(path);
  out << "# measured FPR vs bits per key (filter arrays only, no header), n = " << n << " keys, " << 10 * n
      << " negative queries per point\nkind\tp\tbits_per_key\tfpr\texpected_fpr\n";
  const double rates[] = {0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001};
  std::vector<uint8_t> results(neg.size());
  for (int kind = BLOOM_KIND_CLASSIC; kind <= BLOOM_KIND_SCALABLE; ++kind) {
    for (double p : rates) {
      bloom_options o;
      bloom_options_init(&o);
      o.kind = kind;
      o.capacity = n;
      o.fp_rate = p;
      bloom_filter *f = nullptr;
      const bloom_status s = bloom_create(&o, &f);
      if (s == BLOOM_E_UNSUPPORTED) {
        out << "# " << bloom_kind_name(kind) << ": n/a (not implemented in this build)\n";
        break;
      }
      if (s != BLOOM_OK || bloom_add_batch(f, pos.ptrs.data(), pos.lens.data(), n) != BLOOM_OK ||
          bloom_query_batch(f, neg.ptrs.data(), neg.lens.data(), neg.size(), results.data()) != BLOOM_OK) {
        std::fprintf(stderr, "fpr sweep: %s at p = %g: %s\n", bloom_kind_name(kind), p, bloom_last_error());
        bloom_destroy(f);
        return 1;
      }
      size_t hits = 0;
      for (uint8_t r : results) hits += r;
      bloom_info info;
      info.struct_size = sizeof info;
      bloom_get_info(f, &info);
      bloom_destroy(f);
      char line[256];
      std::snprintf(line, sizeof line, "%s\t%g\t%.4f\t%.6g\t%.6g\n", bloom_kind_name(kind), p,
                    static_cast<double>(info.bytes) * 8 / static_cast<double>(n),
                    static_cast<double>(hits) / static_cast<double>(neg.size()),
                    bloom_expected_fp_rate(n, info.bits, info.hashes));
      out << line;
    }
  }
  return out ? 0 : 1;
}

}  // namespace bloom_bench
