/* The "same bytes" reference: libmicrohttpd answering every request with one response captured
 * from the service (status, header fields, body), in the service's threading mode. Like the
 * service, and unlike bench/baseline.c, it builds the response and adds its header fields for
 * each request (the service's bodies differ per request, so it cannot reuse one response). The
 * gap between this server and the baseline is what the service's answer costs libmicrohttpd and
 * the kernel (size, header fields); the gap between the service and this server is the service's
 * own work. POST bodies are read and discarded.
 *
 * Capture file: first line the status code, then "Name: value" lines, an empty line, the body.
 * Build: cc -O2 replay.c -lmicrohttpd; run: ./replay PORT THREADS CAPTURE */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#define MAX_FIELDS 32
static unsigned int status;
static char *names[MAX_FIELDS], *values[MAX_FIELDS];
static int field_count;
static char *body;
static size_t body_length;
static int marker;

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*con_cls == NULL) { *con_cls = &marker; return MHD_YES; }
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    struct MHD_Response *r = MHD_create_response_from_buffer(body_length, body, MHD_RESPMEM_MUST_COPY);
    if (r == NULL) return MHD_NO;
    for (int i = 0; i < field_count; i++) MHD_add_response_header(r, names[i], values[i]);
    enum MHD_Result result = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return result;
}

static int load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    static char line[8192];
    if (fgets(line, sizeof line, f) == NULL || (status = (unsigned int)atoi(line)) == 0) return 0;
    while (fgets(line, sizeof line, f) != NULL && line[0] != '\n') {
        line[strcspn(line, "\n")] = 0;
        char *colon = strstr(line, ": ");
        if (colon == NULL || field_count == MAX_FIELDS) return 0;
        *colon = 0;
        names[field_count] = strdup(line);
        values[field_count++] = strdup(colon + 2);
    }
    body = malloc(1 << 24);
    body_length = fread(body, 1, 1 << 24, f);
    fclose(f);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4 || !load(argv[3])) { fprintf(stderr, "usage: replay PORT THREADS CAPTURE\n"); return 2; }
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC, (uint16_t)atoi(argv[1]), NULL, NULL,
                                            handler, NULL, MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)atoi(argv[2]),
                                            MHD_OPTION_CONNECTION_LIMIT, 1024u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
                                            MHD_OPTION_END);
    if (!d) { fprintf(stderr, "replay: cannot start on %s\n", argv[1]); return 1; }
    sigset_t set; sigemptyset(&set); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sig; sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
