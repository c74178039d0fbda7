/*
 * banned.h: functions waymark code must not call (docs/ARCHITECTURE.md, Code
 * conventions).
 *
 * Include it LAST in every .c file, after the system headers, so the
 * macros below turn a call into a compile error without disturbing the
 * system declarations. Use snprintf with a truncation check, buf_* from
 * buf.h, strtoull with an end-pointer check, and the *_r time functions.
 */
#ifndef WAYMARK_BANNED_H
#define WAYMARK_BANNED_H

#define BANNED(func) sorry_##func##_is_banned_in_waymark

#undef strcpy
#define strcpy(a, b) BANNED(strcpy)
#undef strcat
#define strcat(a, b) BANNED(strcat)
#undef strncpy
#define strncpy(a, b, n) BANNED(strncpy)
#undef strncat
#define strncat(a, b, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(a, b) BANNED(strtok)
#undef atoi
#define atoi(a) BANNED(atoi)
#undef atol
#define atol(a) BANNED(atol)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef gets
#define gets(a) BANNED(gets)

#endif
