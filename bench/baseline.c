/* The performance baseline: libmicrohttpd with an empty handler that answers a fixed small JSON
 * body, in the service's threading mode (epoll, internal thread pool of THREADS). POST bodies are
 * read and discarded. Build: cc -O2 baseline.c -lmicrohttpd; run: ./baseline PORT THREADS */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

static const char BODY[] = "{\"ratio\":4.478089453577214,\"ratioText\":\"4.47\"}";
static struct MHD_Response *response;
static int marker;

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*con_cls == NULL) { *con_cls = &marker; return MHD_YES; }
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    return MHD_queue_response(c, MHD_HTTP_OK, response);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 8090, threads = argc > 2 ? atoi(argv[2]) : 2;
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
