# Doxygen input filter for include/bloom/*.h*: the headers use plain C
# comments (they are read by people first); this turns them into Doxygen's
# without touching the files.
#  - a comment block opening a line documents the declaration below it,
#    except banner lines ("/* ---- */", "/* Title      */");
#  - a comment after a member or enum value documents that member.
/^ *\/\* -\{4,\}/b
/^ *\/\* .*[^ ]  \{2,\}\*\/$/b
s|^\( *\)/\* |\1/** |
s|\([;,]\) *\(/\*\) |\1 /**< |
s|^\(#define [A-Z_0-9]* .*[^ ]\) *\(/\*\) |\1 /**< |
s|^\( *[A-Z][A-Z_0-9]* = -\{0,1\}[0-9][0-9]*\) *\(/\*\) |\1 /**< |
