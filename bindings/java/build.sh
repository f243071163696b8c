#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build, test and run the Java binding with the JDK's own tools (no Maven:
# Maven Central is not reachable; every dependency is a Debian package).
#   ./build.sh            jar + Javadoc: build/bloomkit-<version>.jar, build/javadoc/
#   ./build.sh test       + JUnit 4 tests (unit and the conformance suite)
#   ./build.sh example    + run src/example/java/Dedup.java on standard input
#   ./build.sh bench      + per-call benchmark (bindings/bench/run.sh runs it beside C)
# Needs: a JDK (17+), a C compiler (the JNI half), libjna-java; tests also junit4, libhamcrest-java,
# libgoogle-gson-java. The C library is found with pkg-config (set
# PKG_CONFIG_PATH for a non-system prefix) and given to JNA as
# jna.library.path.
set -euo pipefail
cd "$(dirname "$0")"

VERSION=0.3.0
JAVA_LIB=${JAVA_LIB:-/usr/share/java}
JNA=${JNA_JAR:-$JAVA_LIB/jna.jar}
TEST_CP="$JAVA_LIB/junit4.jar:$JAVA_LIB/hamcrest-core.jar:$JAVA_LIB/gson.jar"
OUT=build
JAR="$OUT/bloomkit-$VERSION.jar"

need() { [ -f "$1" ] || { echo "build.sh: missing $1 (Debian package $2)" >&2; exit 1; }; }
need "$JNA" libjna-java

libdir=$(pkg-config --variable=libdir bloom) || { echo "build.sh: pkg-config cannot find bloom; set PKG_CONFIG_PATH" >&2; exit 1; }
RUN=(java -Djna.library.path="$libdir")
# The JDK's jni.h (default-jdk-headless has it): javac's home.
JDK=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -f "$JDK/include/jni.h" ] || { echo "build.sh: no $JDK/include/jni.h (set JAVA_HOME to a JDK)" >&2; exit 1; }
jvm_property() { java -XshowSettings:properties -version 2>&1 | sed -n "s/^ *$1 = //p"; }

build() {
  rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
  javac --release 17 -Xlint:all -Werror -cp "$JNA" -d "$OUT/classes" -h "$OUT/jni" $(find src/main/java -name '*.java')
  # The JNI half (src/main/c) goes into the jar under the JVM's os-arch name
  # (FastNative.RESOURCE); RUNPATH names the library's directory as well.
  local native="$OUT/classes/bloomkit/native/$(jvm_property os.name | tr 'A-Z ' 'a-z_')-$(jvm_property os.arch)"
  mkdir -p "$native"
  # shellcheck disable=SC2046
  ${CC:-cc} -O2 -std=c11 -Wall -Wextra -Werror -fPIC -shared -I"$OUT/jni" -I"$JDK/include" -I"$JDK/include/linux" \
    src/main/c/bloomkit_jni.c $(pkg-config --cflags --libs bloom) -Wl,-rpath,"$libdir" -o "$native/libbloomkit_jni.so"
  jar --create --file "$JAR" -C "$OUT/classes" .
  javadoc -quiet -Xdoclint:all -Werror --release 17 -cp "$JNA" -d "$OUT/javadoc" -sourcepath src/main/java bloomkit >/dev/null
  echo "built $JAR and $OUT/javadoc"
}

build
case "${1:-}" in
  "") ;;
  test)
    need "$JAVA_LIB/junit4.jar" junit4
    need "$JAVA_LIB/gson.jar" libgoogle-gson-java
    rm -rf "$OUT/test-classes" && mkdir -p "$OUT/test-classes"
    javac --release 17 -Xlint:all -Werror -cp "$JAR:$JNA:$TEST_CP" -d "$OUT/test-classes" $(find src/test/java -name '*.java')
    classes=$(cd src/test/java && find . -name '*Test.java' | sed 's|^\./||; s|\.java$||; s|/|.|g' | sort)
    # shellcheck disable=SC2086
    "${RUN[@]}" -cp "$OUT/test-classes:$JAR:$JNA:$TEST_CP" bloomkit.TestMain $classes
    ;;
  example)
    mkdir -p "$OUT/example"
    javac --release 17 -Xlint:all -Werror -cp "$JAR" -d "$OUT/example" src/example/java/Dedup.java
    "${RUN[@]}" -cp "$OUT/example:$JAR:$JNA" Dedup "${@:2}"
    ;;
  bench)
    mkdir -p "$OUT/bench"
    javac --release 17 -Xlint:all -Werror -cp "$JAR" -d "$OUT/bench" src/bench/java/PerCall.java
    java -Djna.library.path="$libdir" -cp "$OUT/bench:$JAR:$JNA" PerCall
    ;;
  *) echo "usage: build.sh [test|example|bench]" >&2; exit 2 ;;
esac
