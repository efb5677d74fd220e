import math
loss = 0.123456
epoch = 7
print(f"epoch {epoch:3d} loss {loss:.3f} {math.pi:>10.4f} {epoch!r}")
print("Epoch %d, Loss %f" % (epoch, loss))
print("%(name)s=%(v).2f" % {"name": "lr", "v": 0.01})
print("{:.3f} {} {name}".format(loss, epoch, name="x"))
print("{0}-{1}-{0}".format("a", "b"))
print(format(1234.5678, ",.2f"), "%5s|" % "ab", "{:>6}|".format("r"))
w = 3
print(f"{loss:{w}.{w}}")
