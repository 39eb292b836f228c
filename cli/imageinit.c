/* imageinit.c: a program's `.global .texref t = { filter_mode = linear, ... }` (or `.surfref`)
 * meets the lanes file's texture (surface) "t". The initializer's sampling fields set the
 * texture's sampling where the lanes file says nothing; where both say something they must
 * agree, else the run does not start (an error naming both places: neither silently wins). Its
 * sizes (width, height, depth, array_size) must be the lanes file's image's. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const Decl *opaque_named(const Module *m, const char *name, int space)
{
    for (uint32_t i = 0; i < m->globals.len; i++)
        if (m->globals.data[i].name == name && m->globals.data[i].space == space)
            return &m->globals.data[i];
    return NULL;
}

/* "file.ptx:4:23": where field f is written, in at. */
static void place(const Module *m, const OpaqueInit *o, OpaqueField f, Msg *at)
{
    uint32_t line, column;
    source_position(m->src, o->at[f].offset, &line, &column);
    msg_set(at, "%s:%u:%u", m->src->name, line, column);
}

static const char *address_word(int mode)
{
    static const char *const words[] = { [ADDRESS_CLAMP] = "clamp", [ADDRESS_WRAP] = "wrap",
                                         [ADDRESS_MIRROR] = "mirror", [ADDRESS_BORDER] = "border" };
    return words[mode];
}

bool image_initializer(const Block *b, Image *im, bool filter_given, bool normalized_given, bool address_given,
                       const char *where, Msg *err)
{
    const Module *m = b->prog.m;
    const Decl *d = opaque_named(m, im->name, im->surface ? SPACE_SURF : SPACE_TEX);
    const OpaqueInit *o = d ? d->opaque : NULL;
    Msg at = { 0 };
    if (!o)
        return true;
    static const OpaqueField sizes[] = { OPAQUE_WIDTH, OPAQUE_HEIGHT, OPAQUE_DEPTH, OPAQUE_ARRAY_SIZE };
    for (unsigned k = 0; k < 4; k++) {
        OpaqueField f = sizes[k];
        if (!(o->given & 1u << f))
            continue;
        int64_t want = o->value[f];
        bool lacks = k < 3 ? k >= im->dims : !im->layers;
        int64_t have = k < 3 ? im->size[k] : im->layers;
        if (lacks || have != want) {
            place(m, o, f, &at);
            msg_set(err, "%s: the program's initializer says %s = %" PRId64 " (%s), but this %s %s %" PRId64,
                    where, opaque_field_names[f], want, at.text, im->surface ? "surface" : "texture",
                    lacks ? (k < 3 ? "has no such dimension:" : "is not layered:") : "has", have);
            msg_free(&at);
            return false;
        }
    }
    if (im->surface)
        return true;
    Image set = *im;
    OpaqueField refused;
    if (!image_sampling_from_init(o, &set.sampler, &refused)) {
        place(m, o, refused, &at);
        msg_set(err, "%s: ptxrun cannot execute %s = %s (%s) yet", where, opaque_field_names[refused],
                opaque_addr_names[o->value[refused]], at.text);
        msg_free(&at);
        return false;
    }
    const char *clash = NULL;
    OpaqueField f = OPAQUE_FILTER_MODE;
    char lanes_says[64];
    if (filter_given && (o->given & 1u << f) && set.sampler.linear != im->sampler.linear) {
        clash = "filter";
        snprintf(lanes_says, sizeof lanes_says, "\"%s\"", im->sampler.linear ? "linear" : "point");
    } else if (normalized_given && (o->given & 1u << (f = OPAQUE_NORMALIZED_COORDS)) &&
               set.sampler.normalized_coords != im->sampler.normalized_coords) {
        clash = "normalized_coords";
        snprintf(lanes_says, sizeof lanes_says, "%s", im->sampler.normalized_coords ? "true" : "false");
    }
    for (unsigned k = 0; !clash && address_given && k < im->dims; k++)
        if ((o->given & 1u << (f = (OpaqueField)(OPAQUE_ADDR_MODE_0 + k))) && set.sampler.address[k] != im->sampler.address[k]) {
            clash = "address";
            snprintf(lanes_says, sizeof lanes_says, "\"%s\" in dimension %u", address_word(im->sampler.address[k]), k);
        }
    if (clash) {
        place(m, o, f, &at);
        char init_says[64];
        if (f == OPAQUE_FILTER_MODE)
            snprintf(init_says, sizeof init_says, "%s", o->value[f] == FILTER_LINEAR ? "linear" : "nearest");
        else if (f == OPAQUE_NORMALIZED_COORDS)
            snprintf(init_says, sizeof init_says, "%" PRId64, o->value[f]);
        else
            snprintf(init_says, sizeof init_says, "%s", opaque_addr_names[o->value[f]]);
        msg_set(err, "%s: \"%s\" gives %s, but the program's initializer of '%s' says %s = %s (%s): "
                "give the setting in one place", where, clash, lanes_says, im->name, opaque_field_names[f],
                init_says, at.text);
        msg_free(&at);
        return false;
    }
    *im = set;
    return true;
}
