/* sad: declarations only (no definitions). */
#ifndef _SAD_SYSLOG_H
#define _SAD_SYSLOG_H
#define LOG_ERR 3
#define LOG_WARNING 4
#define LOG_INFO 6
#define LOG_DEBUG 7
void openlog(const char *ident, int option, int facility);
void syslog(int priority, const char *fmt, ...);
void closelog(void);
#endif
