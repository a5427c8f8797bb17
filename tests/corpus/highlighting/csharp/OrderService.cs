using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

namespace Shop.Orders
{
    public record OrderLine(string Sku, int Quantity, decimal UnitPrice);

    public interface IOrderRepository
    {
        Task<Order?> FindAsync(Guid id);
        Task SaveAsync(Order order);
    }

    public sealed class Order
    {
        private readonly List<OrderLine> _lines = new();

        public Guid Id { get; init; } = Guid.NewGuid();
        public string Customer { get; set; } = string.Empty;
        public DateTime CreatedAt { get; } = DateTime.UtcNow;
        public IReadOnlyList<OrderLine> Lines => _lines;

        public decimal Total => _lines.Sum(l => l.Quantity * l.UnitPrice);

        public void Add(OrderLine line)
        {
            if (line.Quantity <= 0)
                throw new ArgumentOutOfRangeException(nameof(line), "quantity must be positive");
            _lines.Add(line);
        }
    }

    public class OrderService
    {
        private readonly IOrderRepository _repository;
        private const decimal FreeShippingThreshold = 50.0m;

        public OrderService(IOrderRepository repository)
        {
            _repository = repository ?? throw new ArgumentNullException(nameof(repository));
        }

        public async Task<decimal> CheckoutAsync(Guid orderId)
        {
            var order = await _repository.FindAsync(orderId);
            if (order is null)
            {
                return -1;
            }
            // Orders above the threshold ship for free.
            decimal shipping = order.Total >= FreeShippingThreshold ? 0m : 4.99m;
            var summary = $"{order.Customer}: {order.Lines.Count} lines, total {order.Total + shipping:C}";
            Console.WriteLine(summary);
            foreach (var line in order.Lines.Where(l => l.Quantity > 10))
            {
                Console.WriteLine(@"bulk line: " + line.Sku);
            }
            await _repository.SaveAsync(order);
            return order.Total + shipping;
        }
    }
}
