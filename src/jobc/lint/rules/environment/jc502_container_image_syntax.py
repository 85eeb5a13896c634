"""`container.image` in a form pyxis does not read the way it was meant.

Pyxis takes either a squashfs file or an enroot image URI, `[USER@][REGISTRY#]IMAGE[:TAG]`:

- a squashfs file is recognised only by a path that starts with `/` or `.`; `images/pt.sqsh`
  is looked up as an image named `images/pt.sqsh` on Docker Hub, and `~/pt.sqsh` the same
  way (nothing expands `~`);
- the registry is separated from the image by `#`, not `/`: `nvcr.io/nvidia/pytorch:25.01-py3`
  asks Docker Hub for a repository called `nvcr.io/nvidia/pytorch` and fails with "failed to
  import docker image" after the job has waited in the queue;
- spaces, and more than one `#`, are never part of an image reference.

Error: the job fails when its first step starts.

Bad:

```yaml
container: {image: "nvcr.io/nvidia/pytorch:25.01-py3"}
```

Good:

```yaml
container: {image: "nvcr.io#nvidia/pytorch:25.01-py3"}   # or /lustre/images/pytorch-25.01.sqsh
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC502",
    name="container-image-syntax",
    severity=Severity.ERROR,
    summary="container.image is neither an absolute/./ squashfs path nor a registry#image reference",
    remediation=(
        'Write squashfs images as /abs/path.sqsh or ./path.sqsh, registry images as "registry#repo:tag".'
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("container",),)

_SQUASHFS = (".sqsh", ".squashfs", ".sqfs")
_SCHEMES = ("docker://", "dockerd://", "podman://")


def check(ctx: Context) -> Iterator[Hit]:
    container = ctx.spec.container
    if container is None:
        return
    from jobc.spec.interpolate import references

    if any(True for _ in references(container.image)):
        return  # written from spec values (`{unknown.IMAGE}` from an import): JC008 checks those
    problem = image_problem(container.image)
    if problem:
        yield Hit(("container", "image"), problem)


def image_problem(image: str) -> str | None:
    """What pyxis would make of ``image`` that the writer did not mean, or None."""
    text = image.strip()
    if not text:
        return "container.image is empty; give a squashfs path or a registry#image reference"
    if len(text.split(maxsplit=1)) > 1:  # stripped: whitespace inside it (a test per character cost more)
        return "container.image contains a space, which no image path or reference has"
    if text.startswith("~"):
        return (
            "container.image starts with '~', which nothing expands here: pyxis would look for an "
            "image of that name in a registry; write the absolute path"
        )
    if text.startswith(("/", ".")):
        return None
    if text.lower().endswith(_SQUASHFS):
        return (
            f"pyxis reads a squashfs file only from a path starting with '/' or '.'; as written, "
            f"{text!r} is looked up as an image in a registry; write ./{text} or an absolute path"
        )
    ref = text
    for scheme in _SCHEMES:
        ref = ref.removeprefix(scheme)
    if ref.count("#") > 1:
        return "container.image has more than one '#'; the form is registry#repository:tag"
    if "#" in ref:
        return None
    user, at, rest = ref.partition("@")
    if at and "/" not in user and ":" not in user:
        ref = rest
    first, slash, remainder = ref.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        return (
            f"pyxis separates the registry from the image with '#': {first}/… is read as a "
            f"repository on Docker Hub; write {first}#{remainder}"
        )
    return None
