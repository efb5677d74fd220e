class ShapeError(Exception):
    pass


class Config:
    lr = 0.1

    def __init__(self, epochs):
        self.epochs = epochs

    def __repr__(self):
        return f"Config(lr={self.lr}, epochs={self.epochs})"


try:
    raise ShapeError("bad shape", 3)
except ShapeError as e:
    print(type(e).__name__, e.args, str(e))
c = Config(5)
c.epochs += 1
Config.lr = 0.2
print(c, repr(c), isinstance(c, Config))


class HttpError(Exception):
    status = 400

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code

    def describe(self):
        return f"{self.code}: {self.args[0]}"


try:
    raise HttpError("teapot", 418)
except HttpError as e:
    print(e.code, e.status, e.describe(), e)
