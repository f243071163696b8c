/* SPDX-License-Identifier: Apache-2.0 */
/* json_reader.c -- see json_reader.h. Recursive descent over the whole text. */
#include "json_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const char *s;
  size_t len, i;
  char *err;
  size_t errlen;
} parser;

static int fail(parser *p, const char *what) {
  snprintf(p->err, p->errlen, "%s at byte %zu", what, p->i);
  return -1;
}

static void skip_ws(parser *p) {
  while (p->i < p->len &&
         (p->s[p->i] == ' ' || p->s[p->i] == '\n' || p->s[p->i] == '\r' || p->s[p->i] == '\t'))
    p->i++;
}

static int append(char **buf, size_t *n, size_t *cap, const char *bytes, size_t k) {
  if (*n + k + 1 > *cap) {
    size_t c = *cap ? *cap * 2 : 32;
    while (c < *n + k + 1) c *= 2;
    char *nb = realloc(*buf, c);
    if (!nb) return -1;
    *buf = nb;
    *cap = c;
  }
  memcpy(*buf + *n, bytes, k);
  *n += k;
  (*buf)[*n] = '\0';
  return 0;
}

static int hex4(parser *p, unsigned *out) {
  if (p->i + 4 > p->len) return fail(p, "short \\u escape");
  unsigned v = 0;
  for (int k = 0; k < 4; ++k) {
    char c = p->s[p->i++];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned)(c - 'A' + 10);
    else
      return fail(p, "bad \\u escape");
  }
  *out = v;
  return 0;
}

static int utf8(unsigned cp, char *b) {
  if (cp < 0x80) {
    b[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    b[0] = (char)(0xC0 | cp >> 6);
    b[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    b[0] = (char)(0xE0 | cp >> 12);
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  b[0] = (char)(0xF0 | cp >> 18);
  b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  b[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static int parse_string(parser *p, char **out, size_t *outlen) {
  char *buf = NULL;
  size_t n = 0, cap = 0;
  p->i++; /* the opening quote */
  if (append(&buf, &n, &cap, "", 0) != 0) return fail(p, "out of memory");
  for (;;) {
    if (p->i >= p->len) {
      free(buf);
      return fail(p, "unterminated string");
    }
    char c = p->s[p->i++];
    if (c == '"') break;
    if (c != '\\') {
      if (append(&buf, &n, &cap, &c, 1) != 0) {
        free(buf);
        return fail(p, "out of memory");
      }
      continue;
    }
    if (p->i >= p->len) {
      free(buf);
      return fail(p, "unterminated escape");
    }
    char e = p->s[p->i++], b[4];
    int k = 1;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        b[0] = e;
        break;
      case 'b':
        b[0] = '\b';
        break;
      case 'f':
        b[0] = '\f';
        break;
      case 'n':
        b[0] = '\n';
        break;
      case 'r':
        b[0] = '\r';
        break;
      case 't':
        b[0] = '\t';
        break;
      case 'u': {
        unsigned cp, lo;
        if (hex4(p, &cp) != 0) {
          free(buf);
          return -1;
        }
        if (cp >= 0xD800 && cp < 0xDC00) {
          if (p->i + 2 > p->len || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u') {
            free(buf);
            return fail(p, "lone surrogate");
          }
          p->i += 2;
          if (hex4(p, &lo) != 0) {
            free(buf);
            return -1;
          }
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        k = utf8(cp, b);
        break;
      }
      default:
        free(buf);
        return fail(p, "bad escape");
    }
    if (append(&buf, &n, &cap, b, (size_t)k) != 0) {
      free(buf);
      return fail(p, "out of memory");
    }
  }
  *out = buf;
  *outlen = n;
  return 0;
}

static int parse_value(parser *p, json_value *v, int depth);

static int push(json_value *v, size_t *cap) {
  if (v->n == *cap) {
    size_t c = *cap ? *cap * 2 : 8;
    json_value *ni = realloc(v->items, c * sizeof *ni);
    if (!ni) return -1;
    v->items = ni;
    if (v->type == JSON_OBJECT) {
      char **nk = realloc(v->keys, c * sizeof *nk);
      if (!nk) return -1;
      v->keys = nk;
    }
    *cap = c;
  }
  memset(&v->items[v->n], 0, sizeof v->items[v->n]);
  return 0;
}

static int parse_container(parser *p, json_value *v, int depth) {
  int object = p->s[p->i] == '{';
  char close = object ? '}' : ']';
  size_t cap = 0;
  v->type = object ? JSON_OBJECT : JSON_ARRAY;
  p->i++;
  skip_ws(p);
  if (p->i < p->len && p->s[p->i] == close) {
    p->i++;
    return 0;
  }
  for (;;) {
    if (push(v, &cap) != 0) return fail(p, "out of memory");
    if (object) {
      size_t klen;
      skip_ws(p);
      if (p->i >= p->len || p->s[p->i] != '"') return fail(p, "expected a key");
      if (parse_string(p, &v->keys[v->n], &klen) != 0) return -1;
      skip_ws(p);
      if (p->i >= p->len || p->s[p->i] != ':') {
        free(v->keys[v->n]);
        return fail(p, "expected :");
      }
      p->i++;
    }
    if (parse_value(p, &v->items[v->n], depth + 1) != 0) {
      if (object) free(v->keys[v->n]);
      json_free(&v->items[v->n]);
      return -1;
    }
    v->n++;
    skip_ws(p);
    if (p->i < p->len && p->s[p->i] == ',') {
      p->i++;
      continue;
    }
    if (p->i < p->len && p->s[p->i] == close) {
      p->i++;
      return 0;
    }
    return fail(p, object ? "expected , or }" : "expected , or ]");
  }
}

static int parse_value(parser *p, json_value *v, int depth) {
  memset(v, 0, sizeof *v);
  if (depth > 64) return fail(p, "nested too deep");
  skip_ws(p);
  if (p->i >= p->len) return fail(p, "unexpected end");
  char c = p->s[p->i];
  if (c == '{' || c == '[') return parse_container(p, v, depth);
  if (c == '"') {
    v->type = JSON_STRING;
    return parse_string(p, &v->text, &v->len);
  }
  static const struct {
    const char *lit;
    json_type t;
    int b;
  } words[] = {{"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0}};
  for (size_t k = 0; k < 3; ++k) {
    size_t wl = strlen(words[k].lit);
    if (p->len - p->i >= wl && memcmp(p->s + p->i, words[k].lit, wl) == 0) {
      v->type = words[k].t;
      v->boolean = words[k].b;
      p->i += wl;
      return 0;
    }
  }
  size_t start = p->i;
  while (p->i < p->len && strchr("+-.eE0123456789", p->s[p->i]) && p->s[p->i] != '\0') p->i++;
  if (p->i == start) return fail(p, "unexpected character");
  v->type = JSON_NUMBER;
  v->len = p->i - start;
  v->text = malloc(v->len + 1);
  if (!v->text) return fail(p, "out of memory");
  memcpy(v->text, p->s + start, v->len);
  v->text[v->len] = '\0';
  return 0;
}

int json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen) {
  parser p = {text, len, 0, err, errlen};
  if (parse_value(&p, out, 0) != 0) {
    json_free(out);
    return -1;
  }
  skip_ws(&p);
  if (p.i != p.len) {
    json_free(out);
    return fail(&p, "trailing data");
  }
  return 0;
}

void json_free(json_value *v) {
  if (!v) return;
  for (size_t k = 0; k < v->n; ++k) {
    json_free(&v->items[k]);
    if (v->type == JSON_OBJECT) free(v->keys[k]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
  memset(v, 0, sizeof *v);
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->type != JSON_OBJECT) return NULL;
  for (size_t k = 0; k < obj->n; ++k)
    if (strcmp(obj->keys[k], key) == 0) return &obj->items[k];
  return NULL;
}
