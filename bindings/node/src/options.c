/* SPDX-License-Identifier: Apache-2.0 */
#include "options.h"

#include "layout.h"

int bk_options_get(napi_env env, napi_value v, bloom_options *o) {
  bloom_options_init(o);
  for (size_t i = 0; i < bk_options_members_count; i++) {
    const bk_member *m = &bk_options_members[i];
    napi_value member;
    if (napi_get_named_property(env, v, m->name, &member) != napi_ok || !bk_member_set(env, o, m, member))
      return 0;
  }
  return 1;
}

napi_value bk_options_defaults(napi_env env) {
  bloom_options o;
  bloom_options_init(&o);
  napi_value obj;
  napi_create_object(env, &obj);
  for (size_t i = 0; i < bk_options_members_count; i++) {
    const bk_member *m = &bk_options_members[i];
    napi_set_named_property(env, obj, m->name, bk_member_get(env, &o, m, 1));
  }
  return obj;
}
