import torch


def main():
    x = torch.ones(2, requires_grad=True)
    (x * 4).sum().backward()
    print(x.grad)


if __name__ == "__main__":
    main()
print(__name__)
