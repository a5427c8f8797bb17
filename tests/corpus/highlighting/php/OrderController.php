<?php

declare(strict_types=1);

namespace App\Http\Controllers;

use App\Models\Order;
use Illuminate\Http\JsonResponse;
use Illuminate\Http\Request;

/**
 * Lists and creates orders for the signed-in customer.
 */
final class OrderController extends Controller
{
    private const PAGE_SIZE = 25;

    public function __construct(private readonly OrderRepository $orders)
    {
    }

    public function index(Request $request): JsonResponse
    {
        $page = max(1, (int) $request->query('page', 1));
        $status = $request->query('status');
        $orders = $this->orders->forCustomer($request->user()->id, $page, self::PAGE_SIZE);

        if ($status !== null && !in_array($status, ['open', 'paid', 'shipped'], true)) {
            return response()->json(['error' => "Unknown status: {$status}"], 422);
        }

        $items = array_map(fn (Order $order) => [
            'id' => $order->id,
            'total' => round($order->total / 100, 2),
            'placed_at' => $order->created_at->format('Y-m-d'),
        ], $orders);

        return response()->json([
            'page' => $page,
            'count' => count($items),
            'items' => $items,
        ]);
    }

    public function store(Request $request): JsonResponse
    {
        $data = $request->validate([
            'sku' => 'required|string',
            'quantity' => 'required|integer|min:1',
        ]);
        $sku = strtoupper(trim($data['sku']));
        if (preg_match('/^[A-Z]{3}-\d{4}$/', $sku) !== 1) {
            throw new \InvalidArgumentException("Bad SKU $sku");
        }
        $order = $this->orders->create($request->user(), $sku, $data['quantity']);
        // Tell the warehouse; failures are retried by the queue.
        dispatch(new NotifyWarehouse($order->id));
        return response()->json(['id' => $order->id, 'summary' => sprintf('%d x %s', $data['quantity'], $sku)], 201);
    }
}
