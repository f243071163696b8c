/* SPDX-License-Identifier: Apache-2.0 */
/*
 * redis_module_api.h -- the part of the Redis Modules API this module uses,
 * declared here from the documented API (no Redis source is copied).
 *
 * How the API works: Redis passes RedisModule_OnLoad a context whose first
 * word is a pointer to its "get API" function. Calling it with the name of
 * an API function ("RedisModule_ReplyWithError", ...) stores that function's
 * address into a pointer of ours. bloom_redis_api_init() does this for every
 * pointer declared below, then registers the module's name; it plays the role
 * of the RedisModule_Init() that redismodule.h provides.
 *
 * Target: the Redis Debian 12 ships (7.0.15). Everything used here exists
 * since Redis 6.0, so older servers of that line load the module too.
 */
#ifndef BLOOM_REDIS_MODULE_API_H
#define BLOOM_REDIS_MODULE_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REDISMODULE_OK 0
#define REDISMODULE_ERR 1
#define REDISMODULE_APIVER_1 1

/* RedisModule_GetContextFlags bits. */
#define REDISMODULE_CTX_FLAGS_MAXMEMORY (1 << 8)   /* maxmemory is set */
#define REDISMODULE_CTX_FLAGS_EVICT (1 << 9)       /* the maxmemory policy can evict keys */
#define REDISMODULE_CTX_FLAGS_REPLICATED (1 << 12) /* sent by the master */
#define REDISMODULE_CTX_FLAGS_LOADING (1 << 13)    /* loading the AOF or an RDB */
#define REDISMODULE_CTX_FLAGS_RESP3 (1 << 22)      /* the client speaks RESP3 */

/* Keyspace notification classes (notify-keyspace-events letters). */
#define REDISMODULE_NOTIFY_GENERIC (1 << 2) /* g */

/* Module configuration flags (Redis 7.0). */
#define REDISMODULE_CONFIG_DEFAULT 0
/* Redis 8: the name is not prefixed with the module's ("bf-error-rate",
 * not "bf.bf-error-rate"); Redis 7 refuses the flag (an unknown one), and the
 * module then registers prefixed names. The value follows Redis 8's list
 * (after MEMORY 1<<7 and BITFLAGS 1<<8); no Redis 8 was at hand to run it. */
#define REDISMODULE_CONFIG_UNPREFIXED (1ULL << 9)

/* RedisModule_OpenKey modes. */
#define REDISMODULE_READ (1 << 0)
#define REDISMODULE_WRITE (1 << 1)

/* RedisModule_KeyType results. */
#define REDISMODULE_KEYTYPE_EMPTY 0
#define REDISMODULE_KEYTYPE_MODULE 6

/* RedisModule_SetModuleOptions: we check IO errors ourselves, so a damaged
 * RESTORE payload is an error reply instead of a server abort. */
#define REDISMODULE_OPTIONS_HANDLE_IO_ERRORS (1 << 0)

/* Version 3 of RedisModuleTypeMethods has every member up to `defrag`. */
#define BLOOM_REDIS_TYPE_METHOD_VERSION 3

#define REDISMODULE_ERRORMSG_WRONGTYPE "WRONGTYPE Operation against a key holding the wrong kind of value"

typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleString RedisModuleString;
typedef struct RedisModuleIO RedisModuleIO;
typedef struct RedisModuleType RedisModuleType;
typedef struct RedisModuleDigest RedisModuleDigest;
typedef struct RedisModuleDefragCtx RedisModuleDefragCtx;
typedef struct RedisModuleServerInfoData RedisModuleServerInfoData;
typedef struct RedisModuleCommand RedisModuleCommand;
typedef struct RedisModuleCommandFilterCtx RedisModuleCommandFilterCtx;
typedef struct RedisModuleCommandFilter RedisModuleCommandFilter;

typedef int (*RedisModuleCmdFunc)(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
typedef void *(*RedisModuleTypeLoadFunc)(RedisModuleIO *rdb, int encver);
typedef void (*RedisModuleTypeSaveFunc)(RedisModuleIO *rdb, void *value);
typedef void (*RedisModuleTypeRewriteFunc)(RedisModuleIO *aof, RedisModuleString *key, void *value);
typedef size_t (*RedisModuleTypeMemUsageFunc)(const void *value);
typedef void (*RedisModuleTypeDigestFunc)(RedisModuleDigest *digest, void *value);
typedef void (*RedisModuleTypeFreeFunc)(void *value);
typedef int (*RedisModuleTypeAuxLoadFunc)(RedisModuleIO *rdb, int encver, int when);
typedef void (*RedisModuleTypeAuxSaveFunc)(RedisModuleIO *rdb, int when);
typedef size_t (*RedisModuleTypeFreeEffortFunc)(RedisModuleString *key, const void *value);
typedef void (*RedisModuleTypeUnlinkFunc)(RedisModuleString *key, const void *value);
typedef void *(*RedisModuleTypeCopyFunc)(RedisModuleString *fromkey, RedisModuleString *tokey,
                                         const void *value);
typedef int (*RedisModuleTypeDefragFunc)(RedisModuleDefragCtx *ctx, RedisModuleString *key, void **value);

/* The callbacks of a module data type, in the documented member order. */
typedef struct RedisModuleTypeMethods {
  uint64_t version;
  RedisModuleTypeLoadFunc rdb_load;
  RedisModuleTypeSaveFunc rdb_save;
  RedisModuleTypeRewriteFunc aof_rewrite;
  RedisModuleTypeMemUsageFunc mem_usage;
  RedisModuleTypeDigestFunc digest;
  RedisModuleTypeFreeFunc free;
  RedisModuleTypeAuxLoadFunc aux_load;
  RedisModuleTypeAuxSaveFunc aux_save;
  int aux_save_triggers;
  RedisModuleTypeFreeEffortFunc free_effort;
  RedisModuleTypeUnlinkFunc unlink;
  RedisModuleTypeCopyFunc copy;
  RedisModuleTypeDefragFunc defrag;
} RedisModuleTypeMethods;

/* RedisModule_SetCommandInfo (Redis 7.0): COMMAND DOCS / COMMAND INFO. */
typedef enum {
  REDISMODULE_ARG_TYPE_STRING,
  REDISMODULE_ARG_TYPE_INTEGER,
  REDISMODULE_ARG_TYPE_DOUBLE,
  REDISMODULE_ARG_TYPE_KEY,
  REDISMODULE_ARG_TYPE_PATTERN,
  REDISMODULE_ARG_TYPE_UNIX_TIME,
  REDISMODULE_ARG_TYPE_PURE_TOKEN,
  REDISMODULE_ARG_TYPE_ONEOF,
  REDISMODULE_ARG_TYPE_BLOCK
} RedisModuleCommandArgType;

#define REDISMODULE_CMD_ARG_NONE 0
#define REDISMODULE_CMD_ARG_OPTIONAL (1 << 0)
#define REDISMODULE_CMD_ARG_MULTIPLE (1 << 1)

typedef enum {
  REDISMODULE_KSPEC_BS_INVALID = 0,
  REDISMODULE_KSPEC_BS_UNKNOWN,
  REDISMODULE_KSPEC_BS_INDEX,
  REDISMODULE_KSPEC_BS_KEYWORD
} RedisModuleKeySpecBeginSearchType;

typedef enum {
  REDISMODULE_KSPEC_FK_OMITTED = 0,
  REDISMODULE_KSPEC_FK_UNKNOWN,
  REDISMODULE_KSPEC_FK_RANGE,
  REDISMODULE_KSPEC_FK_KEYNUM
} RedisModuleKeySpecFindKeysType;

#define REDISMODULE_CMD_KEY_RO (1ULL << 0)
#define REDISMODULE_CMD_KEY_RW (1ULL << 1)
#define REDISMODULE_CMD_KEY_ACCESS (1ULL << 4)
#define REDISMODULE_CMD_KEY_UPDATE (1ULL << 5)
#define REDISMODULE_CMD_KEY_INSERT (1ULL << 6)

typedef struct RedisModuleCommandArg {
  const char *name;
  RedisModuleCommandArgType type;
  int key_spec_index; /* KEY: index into key_specs; else -1 */
  const char *token;
  const char *summary;
  const char *since;
  int flags; /* REDISMODULE_CMD_ARG_* */
  const char *deprecated_since;
  struct RedisModuleCommandArg *subargs;
  const char *display_text; /* Redis 7.2; older servers step over it (sizeof_arg) */
} RedisModuleCommandArg;

typedef struct {
  const char *since;
  const char *changes;
} RedisModuleCommandHistoryEntry;

typedef struct {
  const char *notes;
  uint64_t flags; /* REDISMODULE_CMD_KEY_* */
  RedisModuleKeySpecBeginSearchType begin_search_type;
  union {
    struct {
      int pos;
    } index;
    struct {
      const char *keyword;
      int startfrom;
    } keyword;
  } bs;
  RedisModuleKeySpecFindKeysType find_keys_type;
  union {
    struct {
      int lastkey;
      int keystep;
      int limit;
    } range;
    struct {
      int keynumidx;
      int firstkey;
      int keystep;
    } keynum;
  } fk;
} RedisModuleCommandKeySpec;

/* The sizes let the server read arrays of our structs whatever their version. */
typedef struct {
  int version;
  size_t sizeof_historyentry;
  size_t sizeof_keyspec;
  size_t sizeof_arg;
} RedisModuleCommandInfoVersion;

typedef struct {
  const RedisModuleCommandInfoVersion *version;
  const char *summary;
  const char *complexity;
  const char *since;
  RedisModuleCommandHistoryEntry *history;
  const char *tips;
  int arity;
  RedisModuleCommandKeySpec *key_specs;
  RedisModuleCommandArg *args;
} RedisModuleCommandInfo;

/* Module configuration callbacks (Redis 7.0). */
typedef RedisModuleString *(*RedisModuleConfigGetStringFunc)(const char *name, void *privdata);
typedef long long (*RedisModuleConfigGetNumericFunc)(const char *name, void *privdata);
typedef int (*RedisModuleConfigSetStringFunc)(const char *name, RedisModuleString *val, void *privdata,
                                              RedisModuleString **err);
typedef int (*RedisModuleConfigSetNumericFunc)(const char *name, long long val, void *privdata,
                                               RedisModuleString **err);
typedef int (*RedisModuleConfigApplyFunc)(RedisModuleCtx *ctx, void *privdata, RedisModuleString **err);
typedef void (*RedisModuleCommandFilterFunc)(RedisModuleCommandFilterCtx *filter);

/* The API functions, filled in by bloom_redis_api_init(). */
extern void *(*RedisModule_Alloc)(size_t bytes);
extern void (*RedisModule_Free)(void *ptr);
/* Present in Redis 7.0.15, not in every server: NULL instead of aborting
 * the server when the allocation fails. Optional: NULL when the server lacks it, and
 * the module then uses RedisModule_Alloc. */
extern void *(*RedisModule_TryAlloc)(size_t bytes);
/* The allocator's size of a block (what used_memory counts for it). */
extern size_t (*RedisModule_MallocSize)(void *ptr);
extern RedisModuleServerInfoData *(*RedisModule_GetServerInfo)(RedisModuleCtx *ctx, const char *section);
extern void (*RedisModule_FreeServerInfo)(RedisModuleCtx *ctx, RedisModuleServerInfoData *data);
extern unsigned long long (*RedisModule_ServerInfoGetFieldUnsigned)(RedisModuleServerInfoData *data,
                                                                    const char *field, int *out_err);
extern void (*RedisModule_SetModuleAttribs)(RedisModuleCtx *ctx, const char *name, int ver, int apiver);
extern int (*RedisModule_IsModuleNameBusy)(const char *name);
extern void (*RedisModule_SetModuleOptions)(RedisModuleCtx *ctx, int options);
extern int (*RedisModule_CreateCommand)(RedisModuleCtx *ctx, const char *name, RedisModuleCmdFunc cmdfunc,
                                        const char *strflags, int firstkey, int lastkey, int keystep);
extern RedisModuleType *(*RedisModule_CreateDataType)(RedisModuleCtx *ctx, const char *name, int encver,
                                                      void *typemethods);
extern RedisModuleKey *(*RedisModule_OpenKey)(RedisModuleCtx *ctx, RedisModuleString *keyname, int mode);
extern void (*RedisModule_CloseKey)(RedisModuleKey *key);
extern int (*RedisModule_KeyType)(RedisModuleKey *key);
extern int (*RedisModule_DeleteKey)(RedisModuleKey *key);
extern int (*RedisModule_ModuleTypeSetValue)(RedisModuleKey *key, RedisModuleType *mt, void *value);
extern int (*RedisModule_ModuleTypeReplaceValue)(RedisModuleKey *key, RedisModuleType *mt, void *new_value,
                                                 void **old_value);
extern RedisModuleType *(*RedisModule_ModuleTypeGetType)(RedisModuleKey *key);
extern void *(*RedisModule_ModuleTypeGetValue)(RedisModuleKey *key);
extern int (*RedisModule_WrongArity)(RedisModuleCtx *ctx);
extern int (*RedisModule_ReplyWithLongLong)(RedisModuleCtx *ctx, long long ll);
extern int (*RedisModule_ReplyWithError)(RedisModuleCtx *ctx, const char *err);
extern int (*RedisModule_ReplyWithSimpleString)(RedisModuleCtx *ctx, const char *msg);
extern int (*RedisModule_ReplyWithArray)(RedisModuleCtx *ctx, long len);
/* ReplyWithArray(ctx, REDISMODULE_POSTPONED_ARRAY_LEN), then ReplySetArrayLength. */
#define REDISMODULE_POSTPONED_ARRAY_LEN -1
extern void (*RedisModule_ReplySetArrayLength)(RedisModuleCtx *ctx, long len);
extern int (*RedisModule_ReplyWithStringBuffer)(RedisModuleCtx *ctx, const char *buf, size_t len);
extern int (*RedisModule_ReplyWithNull)(RedisModuleCtx *ctx);
extern int (*RedisModule_ReplyWithDouble)(RedisModuleCtx *ctx, double d);
extern const char *(*RedisModule_StringPtrLen)(const RedisModuleString *str, size_t *len);
extern int (*RedisModule_StringToLongLong)(const RedisModuleString *str, long long *ll);
extern int (*RedisModule_StringToDouble)(const RedisModuleString *str, double *d);
extern int (*RedisModule_ReplicateVerbatim)(RedisModuleCtx *ctx);
extern int (*RedisModule_Replicate)(RedisModuleCtx *ctx, const char *cmdname, const char *fmt, ...);
extern int (*RedisModule_GetContextFlags)(RedisModuleCtx *ctx);
extern void (*RedisModule_SaveUnsigned)(RedisModuleIO *io, uint64_t value);
extern uint64_t (*RedisModule_LoadUnsigned)(RedisModuleIO *io);
extern void (*RedisModule_SaveDouble)(RedisModuleIO *io, double value);
extern double (*RedisModule_LoadDouble)(RedisModuleIO *io);
extern void (*RedisModule_SaveStringBuffer)(RedisModuleIO *io, const char *str, size_t len);
extern char *(*RedisModule_LoadStringBuffer)(RedisModuleIO *io, size_t *lenptr);
extern int (*RedisModule_IsIOError)(RedisModuleIO *io);
extern void (*RedisModule_EmitAOF)(RedisModuleIO *io, const char *cmdname, const char *fmt, ...);
extern void (*RedisModule_Log)(RedisModuleCtx *ctx, const char *level, const char *fmt, ...);
/* The server's clock: Unix time in milliseconds. */
extern long long (*RedisModule_Milliseconds)(void);
extern void (*RedisModule_LogIOError)(RedisModuleIO *io, const char *level, const char *fmt, ...);
extern void (*RedisModule_DigestAddStringBuffer)(RedisModuleDigest *md, const char *ele, size_t len);
extern void (*RedisModule_DigestEndSequence)(RedisModuleDigest *md);
extern int (*RedisModule_NotifyKeyspaceEvent)(RedisModuleCtx *ctx, int type, const char *event,
                                              RedisModuleString *key);
extern RedisModuleString *(*RedisModule_CreateString)(RedisModuleCtx *ctx, const char *ptr, size_t len);
extern void (*RedisModule_FreeString)(RedisModuleCtx *ctx, RedisModuleString *str);

/* Optional: NULL on a server without them (each is from the Redis version
 * named; the module falls back or goes without). */
extern int (*RedisModule_ReplyWithBool)(RedisModuleCtx *ctx, int b);   /* 7.0: RESP3 true/false */
extern int (*RedisModule_ReplyWithMap)(RedisModuleCtx *ctx, long len); /* 7.0: RESP3 map */
extern RedisModuleCommand *(*RedisModule_GetCommand)(RedisModuleCtx *ctx, const char *name); /* 7.0 */
extern int (*RedisModule_SetCommandInfo)(RedisModuleCommand *command, const RedisModuleCommandInfo *info);
extern int (*RedisModule_RegisterNumericConfig)(RedisModuleCtx *ctx, const char *name, long long default_val,
                                                unsigned int flags, long long min, long long max,
                                                RedisModuleConfigGetNumericFunc getfn,
                                                RedisModuleConfigSetNumericFunc setfn,
                                                RedisModuleConfigApplyFunc applyfn, void *privdata); /* 7.0 */
extern int (*RedisModule_RegisterStringConfig)(RedisModuleCtx *ctx, const char *name, const char *default_val,
                                               unsigned int flags, RedisModuleConfigGetStringFunc getfn,
                                               RedisModuleConfigSetStringFunc setfn,
                                               RedisModuleConfigApplyFunc applyfn, void *privdata); /* 7.0 */
extern int (*RedisModule_LoadConfigs)(RedisModuleCtx *ctx);                                         /* 7.0 */
extern int (*RedisModule_SetCommandACLCategories)(RedisModuleCommand *command,
                                                  const char *categories);       /* 7.2 */
extern int (*RedisModule_AddACLCategory)(RedisModuleCtx *ctx, const char *name); /* 7.4 */
extern RedisModuleCommandFilter *(*RedisModule_RegisterCommandFilter)(RedisModuleCtx *ctx,
                                                                      RedisModuleCommandFilterFunc cb,
                                                                      int flags);
extern int (*RedisModule_CommandFilterArgsCount)(RedisModuleCommandFilterCtx *fctx);
extern RedisModuleString *(*RedisModule_CommandFilterArgGet)(RedisModuleCommandFilterCtx *fctx, int pos);
extern int (*RedisModule_CommandFilterArgReplace)(RedisModuleCommandFilterCtx *fctx, int pos,
                                                  RedisModuleString *arg);

/* Resolves every pointer above through the context's get-API function and
 * registers the module as `name`. Returns REDISMODULE_OK, or REDISMODULE_ERR
 * when a function is missing (a server older than 6.0) or the name is taken. */
int bloom_redis_api_init(RedisModuleCtx *ctx, const char *name, int version);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOOM_REDIS_MODULE_API_H */
