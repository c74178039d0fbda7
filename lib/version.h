/* version.h: the service version reported by /health and the admin tool. */
#ifndef WAYMARK_VERSION_H
#define WAYMARK_VERSION_H

#define WAYMARK_VERSION "0.1.0"

#endif
