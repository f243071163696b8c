/* SPDX-License-Identifier: Apache-2.0 */
/* redis_module_api.c -- the API pointers and their resolution (see the header). */
#include "redis_module_api.h"

void *(*RedisModule_Alloc)(size_t bytes);
void (*RedisModule_Free)(void *ptr);
void *(*RedisModule_TryAlloc)(size_t bytes);
size_t (*RedisModule_MallocSize)(void *ptr);
RedisModuleServerInfoData *(*RedisModule_GetServerInfo)(RedisModuleCtx *ctx, const char *section);
void (*RedisModule_FreeServerInfo)(RedisModuleCtx *ctx, RedisModuleServerInfoData *data);
unsigned long long (*RedisModule_ServerInfoGetFieldUnsigned)(RedisModuleServerInfoData *data,
                                                             const char *field, int *out_err);
void (*RedisModule_SetModuleAttribs)(RedisModuleCtx *ctx, const char *name, int ver, int apiver);
int (*RedisModule_IsModuleNameBusy)(const char *name);
void (*RedisModule_SetModuleOptions)(RedisModuleCtx *ctx, int options);
int (*RedisModule_CreateCommand)(RedisModuleCtx *ctx, const char *name, RedisModuleCmdFunc cmdfunc,
                                 const char *strflags, int firstkey, int lastkey, int keystep);
RedisModuleType *(*RedisModule_CreateDataType)(RedisModuleCtx *ctx, const char *name, int encver,
                                               void *typemethods);
RedisModuleKey *(*RedisModule_OpenKey)(RedisModuleCtx *ctx, RedisModuleString *keyname, int mode);
void (*RedisModule_CloseKey)(RedisModuleKey *key);
int (*RedisModule_KeyType)(RedisModuleKey *key);
int (*RedisModule_DeleteKey)(RedisModuleKey *key);
int (*RedisModule_ModuleTypeSetValue)(RedisModuleKey *key, RedisModuleType *mt, void *value);
int (*RedisModule_ModuleTypeReplaceValue)(RedisModuleKey *key, RedisModuleType *mt, void *new_value,
                                          void **old_value);
RedisModuleType *(*RedisModule_ModuleTypeGetType)(RedisModuleKey *key);
void *(*RedisModule_ModuleTypeGetValue)(RedisModuleKey *key);
int (*RedisModule_WrongArity)(RedisModuleCtx *ctx);
int (*RedisModule_ReplyWithLongLong)(RedisModuleCtx *ctx, long long ll);
int (*RedisModule_ReplyWithError)(RedisModuleCtx *ctx, const char *err);
int (*RedisModule_ReplyWithSimpleString)(RedisModuleCtx *ctx, const char *msg);
int (*RedisModule_ReplyWithArray)(RedisModuleCtx *ctx, long len);
void (*RedisModule_ReplySetArrayLength)(RedisModuleCtx *ctx, long len);
int (*RedisModule_ReplyWithStringBuffer)(RedisModuleCtx *ctx, const char *buf, size_t len);
int (*RedisModule_ReplyWithNull)(RedisModuleCtx *ctx);
int (*RedisModule_ReplyWithDouble)(RedisModuleCtx *ctx, double d);
const char *(*RedisModule_StringPtrLen)(const RedisModuleString *str, size_t *len);
int (*RedisModule_StringToLongLong)(const RedisModuleString *str, long long *ll);
int (*RedisModule_StringToDouble)(const RedisModuleString *str, double *d);
int (*RedisModule_ReplicateVerbatim)(RedisModuleCtx *ctx);
int (*RedisModule_Replicate)(RedisModuleCtx *ctx, const char *cmdname, const char *fmt, ...);
int (*RedisModule_GetContextFlags)(RedisModuleCtx *ctx);
void (*RedisModule_SaveUnsigned)(RedisModuleIO *io, uint64_t value);
uint64_t (*RedisModule_LoadUnsigned)(RedisModuleIO *io);
void (*RedisModule_SaveDouble)(RedisModuleIO *io, double value);
double (*RedisModule_LoadDouble)(RedisModuleIO *io);
void (*RedisModule_SaveStringBuffer)(RedisModuleIO *io, const char *str, size_t len);
char *(*RedisModule_LoadStringBuffer)(RedisModuleIO *io, size_t *lenptr);
int (*RedisModule_IsIOError)(RedisModuleIO *io);
void (*RedisModule_EmitAOF)(RedisModuleIO *io, const char *cmdname, const char *fmt, ...);
void (*RedisModule_Log)(RedisModuleCtx *ctx, const char *level, const char *fmt, ...);
long long (*RedisModule_Milliseconds)(void);
void (*RedisModule_LogIOError)(RedisModuleIO *io, const char *level, const char *fmt, ...);
void (*RedisModule_DigestAddStringBuffer)(RedisModuleDigest *md, const char *ele, size_t len);
void (*RedisModule_DigestEndSequence)(RedisModuleDigest *md);
int (*RedisModule_NotifyKeyspaceEvent)(RedisModuleCtx *ctx, int type, const char *event,
                                       RedisModuleString *key);
RedisModuleString *(*RedisModule_CreateString)(RedisModuleCtx *ctx, const char *ptr, size_t len);
void (*RedisModule_FreeString)(RedisModuleCtx *ctx, RedisModuleString *str);
int (*RedisModule_ReplyWithBool)(RedisModuleCtx *ctx, int b);
int (*RedisModule_ReplyWithMap)(RedisModuleCtx *ctx, long len);
RedisModuleCommand *(*RedisModule_GetCommand)(RedisModuleCtx *ctx, const char *name);
int (*RedisModule_SetCommandInfo)(RedisModuleCommand *command, const RedisModuleCommandInfo *info);
int (*RedisModule_RegisterNumericConfig)(RedisModuleCtx *ctx, const char *name, long long default_val,
                                         unsigned int flags, long long min, long long max,
                                         RedisModuleConfigGetNumericFunc getfn,
                                         RedisModuleConfigSetNumericFunc setfn,
                                         RedisModuleConfigApplyFunc applyfn, void *privdata);
int (*RedisModule_RegisterStringConfig)(RedisModuleCtx *ctx, const char *name, const char *default_val,
                                        unsigned int flags, RedisModuleConfigGetStringFunc getfn,
                                        RedisModuleConfigSetStringFunc setfn,
                                        RedisModuleConfigApplyFunc applyfn, void *privdata);
int (*RedisModule_LoadConfigs)(RedisModuleCtx *ctx);
int (*RedisModule_SetCommandACLCategories)(RedisModuleCommand *command, const char *categories);
int (*RedisModule_AddACLCategory)(RedisModuleCtx *ctx, const char *name);
RedisModuleCommandFilter *(*RedisModule_RegisterCommandFilter)(RedisModuleCtx *ctx,
                                                               RedisModuleCommandFilterFunc cb, int flags);
int (*RedisModule_CommandFilterArgsCount)(RedisModuleCommandFilterCtx *fctx);
RedisModuleString *(*RedisModule_CommandFilterArgGet)(RedisModuleCommandFilterCtx *fctx, int pos);
int (*RedisModule_CommandFilterArgReplace)(RedisModuleCommandFilterCtx *fctx, int pos,
                                           RedisModuleString *arg);

typedef int (*get_api_fn)(const char *name, void *target);

/* Each entry: the API function's exported name and where its address goes. */
#define BLOOM_REDIS_API(name) \
  { "RedisModule_" #name, (void **)&RedisModule_##name }

int bloom_redis_api_init(RedisModuleCtx *ctx, const char *name, int version) {
  const struct {
    const char *name;
    void **target;
  } table[] = {
      BLOOM_REDIS_API(Alloc),
      BLOOM_REDIS_API(Free),
      BLOOM_REDIS_API(MallocSize),
      BLOOM_REDIS_API(GetServerInfo),
      BLOOM_REDIS_API(FreeServerInfo),
      BLOOM_REDIS_API(ServerInfoGetFieldUnsigned),
      BLOOM_REDIS_API(SetModuleAttribs),
      BLOOM_REDIS_API(IsModuleNameBusy),
      BLOOM_REDIS_API(SetModuleOptions),
      BLOOM_REDIS_API(CreateCommand),
      BLOOM_REDIS_API(CreateDataType),
      BLOOM_REDIS_API(OpenKey),
      BLOOM_REDIS_API(CloseKey),
      BLOOM_REDIS_API(KeyType),
      BLOOM_REDIS_API(DeleteKey),
      BLOOM_REDIS_API(ModuleTypeSetValue),
      BLOOM_REDIS_API(ModuleTypeReplaceValue),
      BLOOM_REDIS_API(ModuleTypeGetType),
      BLOOM_REDIS_API(ModuleTypeGetValue),
      BLOOM_REDIS_API(WrongArity),
      BLOOM_REDIS_API(ReplyWithLongLong),
      BLOOM_REDIS_API(ReplyWithError),
      BLOOM_REDIS_API(ReplyWithSimpleString),
      BLOOM_REDIS_API(ReplyWithArray),
      BLOOM_REDIS_API(ReplySetArrayLength),
      BLOOM_REDIS_API(ReplyWithStringBuffer),
      BLOOM_REDIS_API(ReplyWithNull),
      BLOOM_REDIS_API(ReplyWithDouble),
      BLOOM_REDIS_API(StringPtrLen),
      BLOOM_REDIS_API(StringToLongLong),
      BLOOM_REDIS_API(StringToDouble),
      BLOOM_REDIS_API(ReplicateVerbatim),
      BLOOM_REDIS_API(Replicate),
      BLOOM_REDIS_API(GetContextFlags),
      BLOOM_REDIS_API(SaveUnsigned),
      BLOOM_REDIS_API(LoadUnsigned),
      BLOOM_REDIS_API(SaveDouble),
      BLOOM_REDIS_API(LoadDouble),
      BLOOM_REDIS_API(SaveStringBuffer),
      BLOOM_REDIS_API(LoadStringBuffer),
      BLOOM_REDIS_API(IsIOError),
      BLOOM_REDIS_API(EmitAOF),
      BLOOM_REDIS_API(Log),
      BLOOM_REDIS_API(Milliseconds),
      BLOOM_REDIS_API(LogIOError),
      BLOOM_REDIS_API(DigestAddStringBuffer),
      BLOOM_REDIS_API(DigestEndSequence),
      BLOOM_REDIS_API(NotifyKeyspaceEvent),
      BLOOM_REDIS_API(CreateString),
      BLOOM_REDIS_API(FreeString),
  };
  /* Optional: a server without one leaves its pointer NULL. */
  const struct {
    const char *name;
    void **target;
  } optional[] = {
      BLOOM_REDIS_API(TryAlloc),
      BLOOM_REDIS_API(ReplyWithBool),
      BLOOM_REDIS_API(ReplyWithMap),
      BLOOM_REDIS_API(GetCommand),
      BLOOM_REDIS_API(SetCommandInfo),
      BLOOM_REDIS_API(RegisterNumericConfig),
      BLOOM_REDIS_API(RegisterStringConfig),
      BLOOM_REDIS_API(LoadConfigs),
      BLOOM_REDIS_API(SetCommandACLCategories),
      BLOOM_REDIS_API(AddACLCategory),
      BLOOM_REDIS_API(RegisterCommandFilter),
      BLOOM_REDIS_API(CommandFilterArgsCount),
      BLOOM_REDIS_API(CommandFilterArgGet),
      BLOOM_REDIS_API(CommandFilterArgReplace),
  };
  /* The context's first word is the get-API function (the documented ABI). */
  get_api_fn get_api = *(get_api_fn *)ctx;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (get_api(table[i].name, table[i].target) != REDISMODULE_OK) return REDISMODULE_ERR;
  for (size_t i = 0; i < sizeof optional / sizeof optional[0]; ++i)
    if (get_api(optional[i].name, optional[i].target) != REDISMODULE_OK) *optional[i].target = 0;
  if (RedisModule_IsModuleNameBusy(name)) return REDISMODULE_ERR;
  RedisModule_SetModuleAttribs(ctx, name, version, REDISMODULE_APIVER_1);
  return REDISMODULE_OK;
}
