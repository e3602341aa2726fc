/* The performance baseline: libmicrohttpd with an empty handler that answers a fixed small JSON
 * body, in the service's threading mode (epoll, internal thread pool of THREADS). POST bodies are
 * read and discarded.
 *
 * With a CAPTURE file it is the "same bytes" reference instead: every request is answered with
 * one response captured from the service (status, header fields, body), and, like the service,
 * the response and its header fields are built for each request (the service's bodies differ per
 * request, so it cannot reuse one response). The gap between this mode and the baseline is what
 * the service's answer costs libmicrohttpd and the kernel (size, header fields); the gap between
 * the service and this mode is the service's own work.
 * Capture file: first line the status code, then "Name: value" lines, an empty line, the body.
 *
 * Build: cc -O2 baseline.c -lmicrohttpd; run: ./baseline PORT THREADS [CAPTURE] */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

static const char BODY[] = "{\"ratio\":4.478089453577214,\"ratioText\":\"4.47\"}";
static struct MHD_Response *response;
static int marker;

#define MAX_FIELDS 32
static unsigned int status;
static char *names[MAX_FIELDS], *values[MAX_FIELDS];
static int field_count;
static char *body;
static size_t body_length;

/* Builds the captured response for one request (the CAPTURE mode). */
static struct MHD_Response *captured(void) {
    struct MHD_Response *r = MHD_create_response_from_buffer(body_length, body, MHD_RESPMEM_MUST_COPY);
    for (int i = 0; r != NULL && i < field_count; i++) MHD_add_response_header(r, names[i], values[i]);
    return r;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*con_cls == NULL) { *con_cls = &marker; return MHD_YES; }
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    if (body == NULL) return MHD_queue_response(c, MHD_HTTP_OK, response);
    struct MHD_Response *r = captured();
    if (r == NULL) return MHD_NO;
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
    body_length = body != NULL ? fread(body, 1, 1 << 24, f) : 0;
    fclose(f);
    return body != NULL;
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 8090, threads = argc > 2 ? atoi(argv[2]) : 2;
    if (argc > 3 && !load(argv[3])) { fprintf(stderr, "baseline: cannot read capture %s\n", argv[3]); return 2; }
    response = MHD_create_response_from_buffer(strlen(BODY), (void *)BODY, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC, (uint16_t)port, NULL, NULL,
                                            handler, NULL, MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
                                            MHD_OPTION_CONNECTION_LIMIT, 1024u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
                                            MHD_OPTION_END);
    if (!d) { fprintf(stderr, "baseline: cannot start on %d\n", port); return 1; }
    sigset_t set; sigemptyset(&set); sigaddset(&set, SIGTERM); sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sig; sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
