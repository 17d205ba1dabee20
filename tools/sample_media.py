"""Draw the sample site's pictures (content/media/): flat illustrations made with Pillow, so the
sample portfolio has original images of its own. Run it again after changing a drawing:

    .venv/bin/python tools/sample_media.py
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

MEDIA = Path(__file__).resolve().parent.parent / "content" / "media"
SCALE = 2  # drawn at twice the size, then reduced: smooth edges without an antialiasing API


def canvas(width, height, background):
    image = Image.new("RGB", (width * SCALE, height * SCALE), background)
    return image, ImageDraw.Draw(image)


def box(*values):
    return [v * SCALE for v in values]


def save(image, path):
    path = MEDIA / path
    path.parent.mkdir(parents=True, exist_ok=True)
    size = (image.width // SCALE, image.height // SCALE)
    image.resize(size, Image.Resampling.LANCZOS).quantize(64).save(path, optimize=True)
    print(path.relative_to(MEDIA.parent.parent), f"{path.stat().st_size / 1000:.0f} kB")


def font(size):
    return ImageFont.load_default(size * SCALE)


def tidewater():
    image, draw = canvas(1600, 900, "#0f3a4a")
    for row in range(7):  # swells of the tide, one band each
        y = 420 + row * 70
        colour = ["#13506a", "#176687", "#1c7ea3", "#2a96bc", "#48aed0", "#6cc3df", "#9ad6ea"][row]
        for x in range(-200, 1800, 400):
            draw.ellipse(box(x, y, x + 420, y + 160), fill=colour)
        draw.rectangle(box(0, min(y + 80, 900), 1600, 900), fill=colour)
    draw.ellipse(box(1060, 110, 1360, 410), outline="#f4d58d", width=34 * SCALE)  # a lens
    draw.line(box(1320, 370, 1460, 510), fill="#f4d58d", width=44 * SCALE)
    for i, width in enumerate((420, 330, 380)):  # ranked results
        draw.rounded_rectangle(box(140, 140 + i * 80, 140 + width, 190 + i * 80), 20 * SCALE, fill="#e8f4f8")
    save(image, "projects/tidewater/cover.png")


def pocket_rag():
    image, draw = canvas(1600, 900, "#2b2140")
    draw.rounded_rectangle(box(330, 190, 1270, 700), 40 * SCALE, fill="#d9d2ea")  # a laptop
    draw.rounded_rectangle(box(380, 240, 1220, 650), 16 * SCALE, fill="#1b1530")
    draw.polygon(box(230, 720, 1370, 720, 1290, 780, 310, 780), fill="#b5aacd")
    for i in range(5):  # notes on screen, the retrieved one highlighted
        colour = "#f2b84b" if i == 2 else "#4b3f6b"
        draw.rounded_rectangle(box(430 + i * 155, 300, 560 + i * 155, 470), 10 * SCALE, fill=colour)
    draw.rounded_rectangle(box(430, 520, 1170, 600), 12 * SCALE, fill="#7de0b5")
    save(image, "projects/pocket-rag/cover.png")


def quillmark():
    image, draw = canvas(1600, 900, "#f5efe3")
    for i in range(3):  # pages of markdown, then the built site
        x = 200 + i * 430
        draw.rounded_rectangle(
            box(x, 200, x + 320, 640), 18 * SCALE, fill="#ffffff", outline="#d8cdb8", width=4 * SCALE
        )
        for line in range(6):
            draw.rounded_rectangle(
                box(x + 40, 260 + line * 55, x + 280 - (line % 3) * 50, 284 + line * 55),
                10 * SCALE,
                fill=["#c2410c", "#9a8f7a", "#1d4ed8"][i],
            )
        if i < 2:
            draw.polygon(box(x + 350, 400, x + 400, 430, x + 350, 460), fill="#9a8f7a")
    draw.polygon(box(1380, 140, 1480, 100, 1300, 560, 1280, 540), fill="#7c2d12")  # a quill
    save(image, "projects/quillmark/cover.png")


def lantern():
    image, draw = canvas(1600, 900, "#161b22")
    draw.rounded_rectangle(
        box(180, 150, 1000, 750), 24 * SCALE, fill="#0d1117", outline="#30363d", width=6 * SCALE
    )
    for i, width in enumerate((520, 420, 610, 380, 470, 300)):  # feed entries in a terminal
        draw.rectangle(box(240, 230 + i * 80, 260, 260 + i * 80), fill="#3fb950" if i == 0 else "#30363d")
        draw.rounded_rectangle(
            box(290, 232 + i * 80, 290 + width, 258 + i * 80),
            8 * SCALE,
            fill="#c9d1d9" if i == 0 else "#6e7681",
        )
    draw.ellipse(box(1120, 250, 1440, 570), fill="#f2cc60")  # the lantern's glow and frame
    draw.rounded_rectangle(
        box(1200, 300, 1360, 560), 20 * SCALE, fill="#ffe9a8", outline="#8b5e1a", width=12 * SCALE
    )
    draw.arc(box(1220, 200, 1340, 330), 180, 360, fill="#8b5e1a", width=12 * SCALE)
    save(image, "projects/lantern-cli/cover.png")


def local_models():
    image, draw = canvas(1400, 788, "#f1f5f9")
    draw.line(box(120, 680, 1300, 680), fill="#64748b", width=4 * SCALE)  # axes of a bar chart
    draw.line(box(120, 100, 120, 680), fill="#64748b", width=4 * SCALE)
    bars = [
        (520, "#2563eb"),
        (430, "#16a34a"),
        (300, "#2563eb"),
        (460, "#16a34a"),
        (210, "#2563eb"),
        (380, "#16a34a"),
    ]
    for i, (height, colour) in enumerate(bars):
        x = 200 + i * 180
        draw.rounded_rectangle(box(x, 680 - height, x + 120, 680), 10 * SCALE, fill=colour)
    save(image, "articles/local-models/tasks.png")


def site_card():
    image, draw = canvas(1200, 630, "#1d4ed8")
    draw.ellipse(box(820, -120, 1380, 440), fill="#2563eb")
    draw.ellipse(box(900, 300, 1300, 700), fill="#1e40af")
    draw.text(box(90, 210), "Ada Brennan", font=font(92), fill="#ffffff")
    draw.text(box(94, 340), "Search, static sites and local-first AI", font=font(40), fill="#dbeafe")
    save(image, "site/card.png")


if __name__ == "__main__":
    for draw_one in (tidewater, pocket_rag, quillmark, lantern, local_models, site_card):
        draw_one()
