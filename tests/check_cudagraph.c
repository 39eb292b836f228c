/* check_cudagraph.c: ptxrun's CUDA graphs, stream capture and stream-ordered memory
 * (build/cuda/libcudart.so.13, cuda/rtgraph*.c, rtcapture.c, rtpool.c, rtstreamattr.c) from plain
 * C through cuda/cudart.h alone, on tests/cudart/kernels.fatbin registered by hand as
 * check_cudart does. Every result is checked against a C computation; the order nodes run in is
 * recorded by host nodes; errors against what CUDA documents. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"

static struct {
    uint32_t magic, version;
    const void *fatbin;
    const void *unused;
} wrapper = { 0x466243b1, 1, NULL, NULL };
static struct {
    uint32_t magic, version;
    const void *fatbin;
    const void *unused;
} cond_wrapper = { 0x466243b1, 1, NULL, NULL };
static char add_stub;          /* add(int *out, const int *a, const int *b, int n): out = a + b */
/* tests/cudagraph/conditional.cu: set_condition(handle, const int *value): the condition = *value;
 * count_down(handle, int *counter, int *log): log[--*counter] += 1, the condition = (*counter > 0) */
static char set_condition_stub, count_down_stub;

static char *read_fatbin(const char *relative)
{
    const char *root = getenv("PTXRUN_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", relative);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "check_cudagraph: cannot read %s (set PTXRUN_ROOT)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    fclose(f);
    return data;
}

static void register_kernels(void)
{
    wrapper.fatbin = read_fatbin("tests/cudart/kernels.fatbin");
    void **handle = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(handle, &add_stub, "add", "add", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);
    cond_wrapper.fatbin = read_fatbin("tests/cudagraph/conditional.fatbin");
    handle = __cudaRegisterFatBinary(&cond_wrapper);
    __cudaRegisterFunction(handle, &set_condition_stub, "set_condition", "set_condition", -1, NULL, NULL, NULL, NULL,
                           NULL);
    __cudaRegisterFunction(handle, &count_down_stub, "count_down", "count_down", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);
}

static dim3 d3(unsigned x)
{
    return (dim3){ x, 1, 1 };
}

/* Host nodes write their mark into a log, in the order they run. */
typedef struct Log {
    int marks[64];
    int count;
} Log;
typedef struct Mark {
    Log *log;
    int mark;
} Mark;

static void record(void *data)
{
    Mark *m = data;
    if (m->log->count < 64)
        m->log->marks[m->log->count++] = m->mark;
}

enum { N = 300 };

static cudaGraphNode_t host_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t count, Mark *m)
{
    cudaGraphNode_t n;
    struct cudaHostNodeParams p = { record, m };
    ck_assert_int_eq(cudaGraphAddHostNode(&n, g, deps, count, &p), cudaSuccess);
    return n;
}

static struct cudaMemcpy3DParms copy_params(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){ (void *)src, bytes, bytes, 1 };
    p.dstPtr = (struct cudaPitchedPtr){ dst, bytes, bytes, 1 };
    p.extent = (struct cudaExtent){ bytes, 1, 1 };
    p.kind = kind;
    return p;
}

/* copies in, a kernel, a copy out and host nodes, their order fixed by dependencies only (host
 * nodes made in the reverse of the order they must run) */
START_TEST(graph_runs_in_dependency_order)
{
    static int a[N], b[N], out[N];
    int *da, *db, *dout;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&db, sizeof b), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    cudaGraph_t g;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    Log log = { .count = 0 };
    Mark last = { &log, 3 }, middle = { &log, 2 }, first = { &log, 1 };
    cudaGraphNode_t h3 = host_node(g, NULL, 0, &last);
    cudaGraphNode_t h2 = host_node(g, NULL, 0, &middle);
    cudaGraphNode_t h1 = host_node(g, NULL, 0, &first);
    cudaGraphNode_t from[] = { h1, h2 }, to[] = { h2, h3 };
    ck_assert_int_eq(cudaGraphAddDependencies(g, from, to, NULL, 2), cudaSuccess);
    cudaGraphNode_t ca, cb, k, cout;
    struct cudaMemcpy3DParms pa = copy_params(da, a, sizeof a, cudaMemcpyHostToDevice);
    struct cudaMemcpy3DParms pb = copy_params(db, b, sizeof b, cudaMemcpyHostToDevice);
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&ca, g, &h3, 1, &pa), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&cb, g, &h3, 1, &pb), cudaSuccess);
    int n = N;
    void *args[] = { &dout, &da, &db, &n };
    struct cudaKernelNodeParams kp = { &add_stub, d3((N + 63) / 64), d3(64), 0, args, NULL };
    cudaGraphNode_t copies[] = { ca, cb };
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, copies, 2, &kp), cudaSuccess);
    n = -1;                                      /* the node took a copy of the arguments */
    struct cudaMemcpy3DParms po = copy_params(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    ck_assert_int_eq(cudaGraphAddMemcpyNode(&cout, g, &k, 1, &po), cudaSuccess);
    Mark done = { &log, 4 };
    host_node(g, &cout, 1, &done);

    size_t count = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 8);
    ck_assert_int_eq(cudaGraphGetRootNodes(g, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 1);                 /* h1 */
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 8);                 /* h1-h2, h2-h3, h3-ca, h3-cb, ca-k, cb-k, k-cout, cout-done */
    cudaGraphNodeType type;
    ck_assert_int_eq(cudaGraphNodeGetType(k, &type), cudaSuccess);
    ck_assert_int_eq(type, cudaGraphNodeTypeKernel);
    struct cudaKernelNodeParams got;
    ck_assert_int_eq(cudaGraphKernelNodeGetParams(k, &got), cudaSuccess);
    ck_assert_ptr_eq(got.func, &add_stub);
    ck_assert_int_eq(*(int *)got.kernelParams[3], N);

    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(log.count, 0);              /* nothing runs before a launch */
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            a[i] = i * (round + 2) - 77, b[i] = 5000 - i * i;
        memset(out, 0, sizeof out);
        ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(NULL), cudaSuccess);
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(out[i], a[i] + b[i]);
        ck_assert_int_eq(log.count, 4 * (round + 1));
        for (int m = 0; m < 4; m++)
            ck_assert_int_eq(log.marks[4 * round + m], m + 1);
    }
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
}
END_TEST

/* memset nodes of 1, 2 and 4-byte elements over pitched rows */
START_TEST(memset_nodes)
{
    enum { PITCH = 40, ROWS = 3 };
    unsigned char *d, host[PITCH * ROWS];
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof host), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d, 0xee, sizeof host), cudaSuccess);
    cudaGraph_t g;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemsetParams s4 = { d, PITCH, 0x01020304u, 4, 5, 2 };     /* 20 bytes of rows 0 and 1 */
    struct cudaMemsetParams s2 = { d + 2 * PITCH, 0, 0xabcdu, 2, 3, 1 }; /* 6 bytes of row 2 */
    cudaGraphNode_t n4, n2;
    ck_assert_int_eq(cudaGraphAddMemsetNode(&n4, g, NULL, 0, &s4), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemsetNode(&n2, g, &n4, 1, &s2), cudaSuccess);
    struct cudaMemsetParams bad = { d, 0, 1, 3, 4, 1 };
    ck_assert_int_eq(cudaGraphAddMemsetNode(&n2, g, NULL, 0, &bad), cudaErrorInvalidValue);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < PITCH; c++) {
            unsigned char want = 0xee;
            if (r < 2 && c < 20)
                want = (unsigned char)(0x01020304u >> (8 * (c % 4)));   /* little-endian words */
            else if (r == 2 && c < 6)
                want = (unsigned char)(0xabcdu >> (8 * (c % 2)));
            ck_assert_int_eq(host[r * PITCH + c], want);
        }
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
}
END_TEST

static cudaGraphNode_t conditional_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t count,
                                        cudaGraphConditionalHandle h, int type, unsigned size, cudaGraph_t **bodies)
{
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n;
    ck_assert_int_eq(cudaGraphAddNode(&n, g, deps, NULL, count, &p), cudaSuccess);
    ck_assert_ptr_nonnull(p.conditional.phGraph_out);
    *bodies = p.conditional.phGraph_out;
    return n;
}

/* conditional nodes: a while loop whose body's kernel clears the condition (the default applied
 * at each launch), an if/else and a switch whose condition a kernel sets from device memory */
START_TEST(conditional_nodes)
{
    int *counter, *log, *value;
    ck_assert_int_eq(cudaMalloc((void **)&counter, sizeof *counter), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&log, 8 * sizeof *log), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&value, sizeof *value), cudaSuccess);
    ck_assert_int_eq(cudaMemset(log, 0, 8 * sizeof *log), cudaSuccess);
    cudaGraph_t g, *body;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphConditionalHandle h;
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&h, g, 1, 1), cudaSuccess);   /* cudaGraphCondAssignDefault */
    conditional_node(g, NULL, 0, h, 1, 1, &body);                                  /* while */
    void *args[] = { &h, &counter, &log };
    struct cudaKernelNodeParams kp = { &count_down_stub, d3(1), d3(1), 0, args, NULL };
    cudaGraphNode_t k;
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, body[0], NULL, 0, &kp), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    int start = 5, now, steps[8];
    ck_assert_int_eq(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    start = 3;                                  /* the default sets the condition again: 3 more steps */
    ck_assert_int_eq(cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&now, counter, sizeof now, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(now, 0);
    ck_assert_int_eq(cudaMemcpy(steps, log, sizeof steps, cudaMemcpyDeviceToHost), cudaSuccess);
    int want[8] = { 2, 2, 2, 1, 1, 0, 0, 0 };  /* counts 4..0 once, then 2..0 again */
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(steps[i], want[i]);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);

    /* if/else then a switch, each after a kernel that sets the condition from *value */
    Log seen = { .count = 0 };
    Mark then = { &seen, 1 }, otherwise = { &seen, 2 }, case0 = { &seen, 10 }, case1 = { &seen, 11 },
         case2 = { &seen, 12 };
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphConditionalHandle hi, hs;
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&hi, g, 0, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&hs, g, 0, 0), cudaSuccess);
    void *ai[] = { &hi, &value }, *as[] = { &hs, &value };
    struct cudaKernelNodeParams si = { &set_condition_stub, d3(1), d3(1), 0, ai, NULL };
    struct cudaKernelNodeParams ss = { &set_condition_stub, d3(1), d3(1), 0, as, NULL };
    cudaGraphNode_t ki, ks, ci;
    ck_assert_int_eq(cudaGraphAddKernelNode(&ki, g, NULL, 0, &si), cudaSuccess);
    ci = conditional_node(g, &ki, 1, hi, 0, 2, &body);                              /* if / else */
    host_node(body[0], NULL, 0, &then);
    host_node(body[1], NULL, 0, &otherwise);
    ck_assert_int_eq(cudaGraphAddKernelNode(&ks, g, &ci, 1, &ss), cudaSuccess);
    conditional_node(g, &ks, 1, hs, 2, 3, &body);                                  /* switch */
    host_node(body[0], NULL, 0, &case0);
    host_node(body[1], NULL, 0, &case1);
    host_node(body[2], NULL, 0, &case2);
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    int values[] = { 0, 1, 2, 7 };
    int marks[][2] = { { 2, 10 }, { 1, 11 }, { 1, 12 }, { 1, 0 } };   /* 7: no case */
    for (int i = 0; i < 4; i++) {
        seen.count = 0;
        ck_assert_int_eq(cudaMemcpy(value, &values[i], sizeof values[i], cudaMemcpyHostToDevice), cudaSuccess);
        ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
        ck_assert_int_eq(seen.count, marks[i][1] ? 2 : 1);
        ck_assert_int_eq(seen.marks[0], marks[i][0]);
        if (marks[i][1])
            ck_assert_int_eq(seen.marks[1], marks[i][1]);
    }
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
}
END_TEST

static int host_calls;
static void count_call(void *data)
{
    (void)data;
    host_calls++;
}

/* edits: dependent nodes, an edge removed, a node destroyed, a node found in a clone, an exec's
 * host node changed and a memset node disabled */
START_TEST(graph_editing)
{
    cudaGraph_t g, c;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    Log log = { .count = 0 };
    Mark m1 = { &log, 1 }, m2 = { &log, 2 }, m3 = { &log, 3 }, m9 = { &log, 9 };
    cudaGraphNode_t n3 = host_node(g, NULL, 0, &m3);
    cudaGraphNode_t n2 = host_node(g, NULL, 0, &m2);
    cudaGraphNode_t n1 = host_node(g, NULL, 0, &m1);
    cudaGraphNode_t from[] = { n2, n1, n1 }, to[] = { n3, n2, n3 };  /* 1 -> 2 -> 3, 1 -> 3 */
    ck_assert_int_eq(cudaGraphAddDependencies(g, from, to, NULL, 3), cudaSuccess);
    cudaGraphNode_t out[4];
    size_t count = 4;
    ck_assert_int_eq(cudaGraphNodeGetDependentNodes(n1, out, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 2);
    ck_assert_int_eq(cudaGraphRemoveDependencies(g, &n1, &n3, NULL, 1), cudaSuccess);
    ck_assert_int_eq(cudaGraphRemoveDependencies(g, &n1, &n3, NULL, 1), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 2);
    int *d, host = 5;
    ck_assert_int_eq(cudaMalloc((void **)&d, sizeof *d), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d, &host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    struct cudaMemsetParams sp = { d, 0, 0, 4, 1, 1 };
    cudaGraphNode_t set;
    ck_assert_int_eq(cudaGraphAddMemsetNode(&set, g, &n3, 1, &sp), cudaSuccess);
    ck_assert_int_eq(cudaGraphClone(&c, g), cudaSuccess);
    cudaGraphNode_t in_clone;
    ck_assert_int_eq(cudaGraphNodeFindInClone(&in_clone, n2, c), cudaSuccess);
    struct cudaHostNodeParams hp;
    ck_assert_int_eq(cudaGraphHostNodeGetParams(in_clone, &hp), cudaSuccess);
    ck_assert_ptr_eq(hp.userData, &m2);
    ck_assert_int_eq(cudaGraphNodeFindInClone(&in_clone, n2, g), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphDestroyNode(n2), cudaSuccess);                /* 1 and 3 now free */
    ck_assert_int_eq(cudaGraphGetRootNodes(g, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 2);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, c, 0), cudaSuccess);
    struct cudaHostNodeParams nine = { record, &m9 };
    cudaGraphNode_t c1;
    ck_assert_int_eq(cudaGraphNodeFindInClone(&c1, n1, c), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecHostNodeSetParams(x, c1, &nine), cudaSuccess);
    cudaGraphNode_t cset;
    ck_assert_int_eq(cudaGraphNodeFindInClone(&cset, set, c), cudaSuccess);
    ck_assert_int_eq(cudaGraphNodeSetEnabled(x, cset, 0), cudaSuccess);
    unsigned enabled = 1;
    ck_assert_int_eq(cudaGraphNodeGetEnabled(x, cset, &enabled), cudaSuccess);
    ck_assert_uint_eq(enabled, 0);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(log.count, 3);
    ck_assert_int_eq(log.marks[0], 9);
    ck_assert_int_eq(log.marks[1], 2);
    ck_assert_int_eq(log.marks[2], 3);
    ck_assert_int_eq(cudaMemcpy(&host, d, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(host, 5);                                              /* the memset was off */
    ck_assert_int_eq(cudaGraphNodeSetEnabled(x, cset, 1), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&host, d, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(host, 0);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(c);
    cudaGraphDestroy(g);
}
END_TEST

/* a capture forked over two streams by events and joined back, replayed with new inputs */
START_TEST(capture_then_replay)
{
    static int a[N], b[N], out[N];
    int *da, *db, *dout;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&db, sizeof b), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    for (int i = 0; i < N; i++)
        b[i] = 3 * i + 1;
    ck_assert_int_eq(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemset(dout, 0x7f, sizeof out), cudaSuccess);
    cudaStream_t s1, s2;
    cudaEvent_t fork, joined;
    ck_assert_int_eq(cudaStreamCreate(&s1), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreate(&s2), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&fork), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&joined), cudaSuccess);
    host_calls = 0;

    ck_assert_int_eq(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    cudaStreamCaptureStatus st;
    ck_assert_int_eq(cudaStreamIsCapturing(s1, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);
    ck_assert_int_eq(cudaStreamIsCapturing(s2, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    ck_assert_int_eq(cudaEventRecord(fork, s1), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamIsCapturing(s2, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusActive);        /* joined by the event */
    ck_assert_int_eq(cudaMemcpyAsync(da, a, sizeof a, cudaMemcpyHostToDevice, s1), cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(dout, 0, sizeof out, s2), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(joined, s2), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s1, joined, 0), cudaSuccess);
    int n = N;
    void *args[] = { &dout, &da, &db, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3((N + 63) / 64), d3(64), args, 0, s1), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(out, dout, sizeof out, cudaMemcpyDeviceToHost, s1), cudaSuccess);
    ck_assert_int_eq(cudaLaunchHostFunc(s1, count_call, NULL), cudaSuccess);
    unsigned long long id = 0;
    cudaGraph_t captured = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    ck_assert_int_eq(cudaStreamGetCaptureInfo(s1, &st, &id, &captured, &deps, NULL, &ndeps), cudaSuccess);
    ck_assert_uint_eq(ndeps, 1);
    cudaGraphNodeType type;
    ck_assert_int_eq(cudaGraphNodeGetType(deps[0], &type), cudaSuccess);
    ck_assert_int_eq(type, cudaGraphNodeTypeHost);
    cudaGraph_t g;
    ck_assert_int_eq(cudaStreamEndCapture(s1, &g), cudaSuccess);
    ck_assert_ptr_eq(g, captured);
    ck_assert_int_eq(cudaStreamIsCapturing(s2, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);

    /* nothing ran while captured */
    ck_assert_int_eq(host_calls, 0);
    int probe;
    ck_assert_int_eq(cudaMemcpy(&probe, dout, sizeof probe, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(probe, 0x7f7f7f7f);
    size_t count = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 5);                 /* copy, memset, kernel, copy, host */
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    ck_assert_uint_eq(count, 4);                 /* copy->kernel, memset->kernel, kernel->copy, copy->host */

    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    for (int round = 1; round <= 3; round++) {
        for (int i = 0; i < N; i++)
            a[i] = round * 1000 - i;
        ck_assert_int_eq(cudaGraphLaunch(x, s1), cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(s1), cudaSuccess);
        ck_assert_int_eq(host_calls, round);
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(out[i], a[i] + b[i]);
    }
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
}
END_TEST

/* a kernel node's arguments changed in the exec, and an exec updated from a graph captured again */
START_TEST(exec_updates)
{
    static int a[N], b[N], out[N];
    int *da, *db, *d1, *d2;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&db, sizeof b), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d1, sizeof out), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d2, sizeof out), cudaSuccess);
    for (int i = 0; i < N; i++)
        a[i] = i * i, b[i] = -2 * i;
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    cudaMemset(d1, 0, sizeof out);
    cudaMemset(d2, 0, sizeof out);
    cudaGraph_t g;
    cudaGraphNode_t k;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    int n = N;
    void *args1[] = { &d1, &da, &db, &n };
    struct cudaKernelNodeParams kp = { &add_stub, d3((N + 63) / 64), d3(64), 0, args1, NULL };
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    void *args2[] = { &d2, &da, &da, &n };
    struct cudaKernelNodeParams kp2 = { &add_stub, d3((N + 63) / 64), d3(64), 0, args2, NULL };
    ck_assert_int_eq(cudaGraphExecKernelNodeSetParams(x, k, &kp2), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, d2, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], 2 * a[i]);
    ck_assert_int_eq(cudaMemcpy(out, d1, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], 0);             /* the graph's own node is unchanged */

    /* a graph of the same shape: its parameters; of another shape: refused, nothing changed */
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaGraph_t again, other;
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3((N + 63) / 64), d3(64), args1, 0, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s, &again), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    ck_assert_int_eq(cudaGraphExecUpdate(x, again, &info), cudaSuccess);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, d1, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], a[i] + b[i]);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(d2, 0, sizeof out, s), cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3((N + 63) / 64), d3(64), args1, 0, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamEndCapture(s, &other), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecUpdate(x, other, &info), cudaErrorGraphExecUpdateFailure);
    ck_assert_int_eq(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaGraphDestroy(again);
    cudaGraphDestroy(other);
}
END_TEST

static uint64_t graph_mem(cudaGraphMemAttributeType attr)
{
    uint64_t v = 0;
    ck_assert_int_eq(cudaDeviceGetGraphMemAttribute(0, attr, &v), cudaSuccess);
    return v;
}

/* allocation and free nodes: the address fixed at the node, the counters, a relaunch refused while
 * the memory is still allocated */
START_TEST(memory_nodes)
{
    static int a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = 7 * i - 1000;
    cudaGraph_t g;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = 1;
    ap.poolProps.location.type = 1;
    ap.poolProps.location.id = 0;
    ap.bytesize = sizeof a;
    cudaGraphNode_t alloc, in, k, back, freed;
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap), cudaSuccess);
    int *dp = ap.dptr;
    ck_assert_ptr_nonnull(dp);
    ck_assert_uint_ge(graph_mem(cudaGraphMemAttrReservedMemCurrent), sizeof a);
    ck_assert_uint_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&in, g, &alloc, 1, dp, a, sizeof a, cudaMemcpyHostToDevice), cudaSuccess);
    int n = N;
    void *args[] = { &dp, &dp, &dp, &n };
    struct cudaKernelNodeParams kp = { &add_stub, d3((N + 63) / 64), d3(64), 0, args, NULL };
    ck_assert_int_eq(cudaGraphAddKernelNode(&k, g, &in, 1, &kp), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemcpyNode1D(&back, g, &k, 1, out, dp, sizeof out, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    cudaGraphExec_t keep;                        /* the same graph without its free: the memory stays */
    ck_assert_int_eq(cudaGraphInstantiate(&keep, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&freed, g, &back, 1, dp), cudaSuccess);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    for (int round = 0; round < 2; round++) {
        ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(out[i], 2 * a[i]);
        ck_assert_uint_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0);
        ck_assert_uint_eq(graph_mem(cudaGraphMemAttrUsedMemHigh), sizeof a);
    }
    ck_assert_int_eq(cudaGraphLaunch(keep, NULL), cudaSuccess);
    ck_assert_uint_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), sizeof a);
    ck_assert_int_eq(cudaGraphLaunch(keep, NULL), cudaErrorInvalidValue);   /* still allocated */
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFree(dp), cudaSuccess);
    ck_assert_uint_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0);
    ck_assert_int_eq(cudaFree(dp), cudaErrorInvalidValue);                  /* freed twice */
    ck_assert_int_eq(cudaGraphLaunch(keep, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(dp, NULL), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecDestroy(keep), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_uint_eq(graph_mem(cudaGraphMemAttrReservedMemCurrent), 0);    /* given back with the last user */
}
END_TEST

static uint64_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr attr)
{
    uint64_t v = 0;
    ck_assert_int_eq(cudaMemPoolGetAttribute(pool, attr, &v), cudaSuccess);
    return v;
}

/* stream-ordered allocation: counters, the release threshold, reuse, trimming, pools of one's own */
START_TEST(memory_pools)
{
    cudaMemPool_t pool, current;
    ck_assert_int_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    ck_assert_ptr_eq(pool, current);
    int supported = 0;
    ck_assert_int_eq(cudaDeviceGetAttribute(&supported, 115, 0), cudaSuccess);   /* MemoryPoolsSupported */
    ck_assert_int_eq(supported, 1);
    void *p, *q;
    ck_assert_int_eq(cudaMallocAsync(&p, 1000, NULL), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent), 1000);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 1000);
    ck_assert_int_eq(cudaMemsetAsync(p, 3, 1000, NULL), cudaSuccess);            /* kernels' memory */
    ck_assert_int_eq(cudaFreeAsync(p, NULL), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent), 0);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 0);   /* threshold 0 */
    uint64_t keep = UINT64_MAX;
    ck_assert_int_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), cudaSuccess);
    ck_assert_int_eq(cudaMallocAsync(&p, 4096, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(p, NULL), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 4096);
    ck_assert_int_eq(cudaMallocAsync(&q, 2000, NULL), cudaSuccess);
    ck_assert_ptr_eq(q, p);                                                      /* kept and given again */
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent), 4096);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrUsedMemHigh), 4096);
    ck_assert_int_eq(cudaFree(q), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(q, NULL), cudaErrorInvalidValue);             /* freed twice */
    ck_assert_int_eq(cudaMemPoolTrimTo(pool, 0), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 0);

    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = 1;
    props.location.type = 1;
    cudaMemPool_t mine;
    ck_assert_int_eq(cudaMemPoolCreate(&mine, &props), cudaSuccess);
    ck_assert_int_eq(cudaMallocFromPoolAsync(&p, 512, mine, NULL), cudaSuccess);
    ck_assert_uint_eq(pool_attr(mine, cudaMemPoolAttrUsedMemCurrent), 512);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent), 0);
    ck_assert_int_eq(cudaFreeAsync(p, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemPoolDestroy(mine), cudaSuccess);
    ck_assert_int_eq(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);           /* the default stays */
}
END_TEST

/* a reset frees every allocation: the pools start again, and what they give is memory the driver
 * knows (a memset reaches it) */
START_TEST(pools_after_reset)
{
    cudaMemPool_t pool;
    ck_assert_int_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    uint64_t keep = UINT64_MAX;
    ck_assert_int_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), cudaSuccess);
    void *p;
    ck_assert_int_eq(cudaMallocAsync(&p, 256, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(p, NULL), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 256);
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent), 0);
    ck_assert_uint_eq(pool_attr(pool, cudaMemPoolAttrReleaseThreshold), 0);
    ck_assert_int_eq(cudaMallocAsync(&p, 256, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemsetAsync(p, 1, 256, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(p, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
}
END_TEST

static int callbacks;
static void callback(cudaStream_t s, cudaError_t status, void *data)
{
    (void)s, (void)status, (void)data;
    callbacks++;
}

/* what is refused: a cycle, another graph's node, a destroyed exec, the legacy stream's capture,
 * an end without a begin, conditional nodes */
START_TEST(graph_errors)
{
    cudaGraph_t g, h;
    ck_assert_int_eq(cudaGraphCreate(&g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphCreate(&h, 0), cudaSuccess);
    cudaGraphNode_t a, b, c, other;
    ck_assert_int_eq(cudaGraphAddEmptyNode(&a, g, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&b, g, &a, 1), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&other, h, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&c, g, &other, 1), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddDependencies(g, &other, &a, NULL, 1), cudaErrorInvalidValue);
    cudaGraphExec_t x;
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddDependencies(g, &b, &a, NULL, 1), cudaSuccess);   /* a -> b -> a */
    ck_assert_int_eq(cudaGraphInstantiate(&x, g, 0), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaStreamBeginCapture(NULL, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    /* CUDA refuses only the legacy stream: the per-thread default stream captures (a memset there
     * is a node, not done at once), and the legacy stream is not capturing meanwhile */
    int *word;
    ck_assert_int_eq(cudaMalloc((void **)&word, 4), cudaSuccess);
    ck_assert_int_eq(cudaMemset(word, 0, 4), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    cudaStreamCaptureStatus st;
    ck_assert_int_eq(cudaStreamIsCapturing(cudaStreamLegacy, &st), cudaSuccess);
    ck_assert_int_eq(st, cudaStreamCaptureStatusNone);
    ck_assert_int_eq(cudaMemsetAsync(word, 0x5a, 4, cudaStreamPerThread), cudaSuccess);
    cudaGraph_t per_thread;
    ck_assert_int_eq(cudaStreamEndCapture(cudaStreamPerThread, &per_thread), cudaSuccess);
    int got = -1;
    ck_assert_int_eq(cudaMemcpy(&got, word, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(got, 0);
    ck_assert_int_eq(cudaGraphInstantiate(&x, per_thread, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, cudaStreamPerThread), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&got, word, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(got, 0x5a5a5a5a);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(per_thread);
    cudaFree(word);
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaGraph_t none;
    ck_assert_int_eq(cudaStreamEndCapture(s, &none), cudaErrorIllegalState);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamAddCallback(s, callback, NULL, 0), cudaErrorNotSupported);
    ck_assert_int_eq(callbacks, 0);                 /* not run while the stream captures */
    ck_assert_int_eq(cudaStreamEndCapture(s, &none), cudaSuccess);
    cudaGraphConditionalHandle handle;
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&handle, h, 0, 2), cudaErrorInvalidValue);
    struct cudaGraphNodeParams cp;
    memset(&cp, 0, sizeof cp);
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = 0x1234;                 /* no graph made it */
    cp.conditional.size = 1;
    ck_assert_int_eq(cudaGraphAddNode(&c, h, NULL, NULL, 0, &cp), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphConditionalHandleCreate(&handle, h, 0, 0), cudaSuccess);
    cp.conditional.handle = handle;
    cp.conditional.type = 1;                        /* a while node has one body */
    cp.conditional.size = 2;
    ck_assert_int_eq(cudaGraphAddNode(&c, h, NULL, NULL, 0, &cp), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaErrorInvalidValue);
    cudaGraphDestroy(h);
    cudaGraphDestroy(none);
}
END_TEST

/* stream attributes are taken, and read back only for the priority: the driver's, clamped to [-5, 0] */
START_TEST(stream_attributes)
{
    cudaStream_t s, hi;
    ck_assert_int_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaLaunchAttributeValue v, got;
    memset(&v, 0, sizeof v);
    struct cudaAccessPolicyWindow w = { (void *)0x1000, 4096, 0.5f, 2, 1 };
    memcpy(&v, &w, sizeof w);
    ck_assert_int_eq(cudaStreamSetAttribute(s, cudaLaunchAttributeAccessPolicyWindow, &v), cudaSuccess);
    ck_assert_int_eq(cudaStreamGetAttribute(s, cudaLaunchAttributeAccessPolicyWindow, &got), cudaErrorNotSupported);
    ck_assert_int_eq(cudaCtxResetPersistingL2Cache(), cudaSuccess);
    int p = 1;
    ck_assert_int_eq(cudaStreamCreateWithPriority(&hi, 0, -3), cudaSuccess);
    ck_assert_int_eq(cudaStreamGetPriority(hi, &p), cudaSuccess);
    ck_assert_int_eq(p, -3);
    ck_assert_int_eq(cudaStreamGetAttribute(hi, cudaLaunchAttributePriority, &got), cudaSuccess);
    ck_assert_int_eq(got.priority, -3);
    cudaStreamDestroy(hi);
    ck_assert_int_eq(cudaStreamCreateWithPriority(&hi, 0, -40), cudaSuccess);
    ck_assert_int_eq(cudaStreamGetPriority(hi, &p), cudaSuccess);
    ck_assert_int_eq(p, -5);
    ck_assert_int_eq(cudaStreamGetPriority(s, &p), cudaSuccess);
    ck_assert_int_eq(p, 0);
    void *m;
    ck_assert_int_eq(cudaMallocManaged(&m, 64, cudaMemAttachGlobal), cudaSuccess);
    ck_assert_int_eq(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle), cudaSuccess);
}
END_TEST

int main(void)
{
    register_kernels();
    Suite *s = suite_create("cudagraph");
    TCase *t = tcase_create("graphs");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, graph_runs_in_dependency_order);
    tcase_add_test(t, memset_nodes);
    tcase_add_test(t, graph_editing);
    tcase_add_test(t, conditional_nodes);
    tcase_add_test(t, capture_then_replay);
    tcase_add_test(t, exec_updates);
    tcase_add_test(t, memory_nodes);
    tcase_add_test(t, memory_pools);
    tcase_add_test(t, pools_after_reset);
    tcase_add_test(t, graph_errors);
    tcase_add_test(t, stream_attributes);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
