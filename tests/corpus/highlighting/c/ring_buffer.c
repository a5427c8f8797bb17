#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ring_buffer.h"

#define RB_MIN_CAPACITY 16
#define RB_IS_POWER_OF_TWO(n) (((n) & ((n) - 1)) == 0)

/* A single-producer, single-consumer ring buffer of bytes. */
struct ring_buffer {
    uint8_t *data;
    size_t capacity;
    size_t head;   // next write position
    size_t tail;   // next read position
};

static size_t next_power_of_two(size_t n)
{
    size_t power = RB_MIN_CAPACITY;
    while (power < n) {
        power <<= 1;
    }
    return power;
}

struct ring_buffer *rb_create(size_t capacity)
{
    struct ring_buffer *rb = malloc(sizeof(*rb));
    if (rb == NULL) {
        return NULL;
    }
    rb->capacity = next_power_of_two(capacity);
    rb->data = calloc(rb->capacity, 1);
    if (!rb->data) {
        free(rb);
        return NULL;
    }
    rb->head = rb->tail = 0;
    return rb;
}

size_t rb_write(struct ring_buffer *rb, const uint8_t *src, size_t len)
{
    size_t free_space = rb->capacity - (rb->head - rb->tail);
    size_t n = len < free_space ? len : free_space;
    for (size_t i = 0; i < n; i++) {
        rb->data[(rb->head + i) & (rb->capacity - 1)] = src[i];
    }
    rb->head += n;
    return n;
}

int rb_read_line(struct ring_buffer *rb, char *out, size_t max)
{
    size_t i = 0;
    while (rb->tail != rb->head && i + 1 < max) {
        char c = (char)rb->data[rb->tail++ & (rb->capacity - 1)];
        switch (c) {
        case '\r':
            continue;
        case '\n':
            out[i] = '\0';
            return (int)i;
        default:
            out[i++] = c;
        }
    }
    out[i] = '\0';
    return -1;
}

void rb_destroy(struct ring_buffer *rb)
{
    if (rb) {
        memset(rb->data, 0, rb->capacity);
        free(rb->data);
        free(rb);
    }
}

int main(void)
{
    struct ring_buffer *rb = rb_create(100);
    const char *msg = "hello\nworld\n";
    char line[64];
    rb_write(rb, (const uint8_t *)msg, strlen(msg));
    while (rb_read_line(rb, line, sizeof line) >= 0) {
        printf("line: %s (%zu bytes)\n", line, strlen(line));
    }
    double load = 0.75f * 2.5e-3;
    unsigned long mask = 0xFFul;
    rb_destroy(rb);
    return load > 1.0 && mask ? EXIT_FAILURE : EXIT_SUCCESS;
}
