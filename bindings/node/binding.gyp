{
  # The installed C library is found with pkg-config (PKG_CONFIG_PATH for a
  # non-system prefix); its libdir goes in the addon's RUNPATH so the addon
  # loads without LD_LIBRARY_PATH.
  "targets": [
    {
      "target_name": "bloomkit",
      "sources": ["src/addon.c", "src/errors.c", "src/handle.c", "src/info.c", "src/keys.c", "src/layout.c",
                  "src/layout_gen.c", "src/options.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags_c": ["-std=c11", "-Wall", "-Wextra", "<!@(pkg-config --cflags bloom)"],
      "libraries": [
        "<!@(pkg-config --libs bloom)",
        "-Wl,-rpath,<!(pkg-config --variable=libdir bloom)"
      ]
    }
  ]
}
