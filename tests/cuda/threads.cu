// threads.cu: a program whose host threads use CUDA at once, as servers and test harnesses do:
// 8 threads, each with its own stream, allocations and kernel launches (30 rounds of copy in,
// kernel, copy out), every result checked; then the last error is each thread's own: a refused
// launch in one thread is not seen by cudaGetLastError in another.
#include "check.h"
#include <pthread.h>

enum { THREADS = 8, ROUNDS = 30, N = 256 };

__global__ void affine(int *data, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = a * data[i] + b;
}

struct Work {
    int id;
    int wrong;              // elements wrong over all rounds
    int errors;             // calls that did not return cudaSuccess
};

static void *worker(void *arg)
{
    Work *w = (Work *)arg;
    cudaStream_t s;
    int *dev, host[N];
    w->errors += cudaStreamCreate(&s) != cudaSuccess;
    w->errors += cudaMalloc(&dev, sizeof host) != cudaSuccess;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < N; i++)
            host[i] = i + w->id * 1000 + round;
        w->errors += cudaMemcpyAsync(dev, host, sizeof host, cudaMemcpyHostToDevice, s) != cudaSuccess;
        affine<<<N / 64, 64, 0, s>>>(dev, w->id + 2, round);
        w->errors += cudaGetLastError() != cudaSuccess;
        w->errors += cudaMemcpyAsync(host, dev, sizeof host, cudaMemcpyDeviceToHost, s) != cudaSuccess;
        w->errors += cudaStreamSynchronize(s) != cudaSuccess;
        for (int i = 0; i < N; i++)
            w->wrong += host[i] != (w->id + 2) * (i + w->id * 1000 + round) + round;
    }
    w->errors += cudaFree(dev) != cudaSuccess;
    w->errors += cudaStreamDestroy(s) != cudaSuccess;
    return NULL;
}

static pthread_mutex_t step = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn = PTHREAD_COND_INITIALIZER;
static int stage;
static cudaError_t seen_by_other = cudaErrorUnknown;

static void wait_for(int s)
{
    pthread_mutex_lock(&step);
    while (stage < s)
        pthread_cond_wait(&turn, &step);
    pthread_mutex_unlock(&step);
}

static void advance(void)
{
    pthread_mutex_lock(&step);
    stage++;
    pthread_cond_broadcast(&turn);
    pthread_mutex_unlock(&step);
}

static void *other(void *arg)
{
    (void)arg;
    wait_for(1);                             // main's refused launch has happened
    seen_by_other = cudaGetLastError();
    advance();
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    Work w[THREADS];
    CHECK_OK(cudaFree(0));                   // the runtime started before the threads
    for (int k = 0; k < THREADS; k++) {
        w[k].id = k;
        w[k].wrong = w[k].errors = 0;
        pthread_create(&t[k], NULL, worker, &w[k]);
    }
    int wrong = 0, errors = 0;
    for (int k = 0; k < THREADS; k++) {
        pthread_join(t[k], NULL);
        wrong += w[k].wrong;
        errors += w[k].errors;
    }
    CHECK(errors == 0, "%d threads at once: every call succeeded (%d did not)", THREADS, errors);
    CHECK(wrong == 0, "%d threads x %d rounds: every element right (%d wrong)", THREADS, ROUNDS, wrong);

    pthread_t o;
    pthread_create(&o, NULL, other, NULL);
    int *dev;
    CHECK_OK(cudaMalloc(&dev, 4096 * sizeof(int)));
    affine<<<1, 4096>>>(dev, 1, 1);          // refused: too many threads
    advance();
    wait_for(2);
    pthread_join(o, NULL);
    CHECK(seen_by_other == cudaSuccess, "another thread's cudaGetLastError: %s", cudaGetErrorName(seen_by_other));
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CHECK_OK(cudaFree(dev));
    return check_report("threads");
}
