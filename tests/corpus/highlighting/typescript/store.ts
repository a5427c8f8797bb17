import type { Request, Response } from "express";
import { z } from "zod";

export interface User {
  id: number;
  name: string;
  email?: string;
  roles: ReadonlyArray<Role>;
}

export type Role = "admin" | "member" | "guest";

enum Status {
  Active = 1,
  Suspended,
  Deleted,
}

const UserInput = z.object({
  name: z.string().min(1),
  email: z.string().email().optional(),
});

export class UserStore<T extends User = User> {
  private readonly users = new Map<number, T>();
  private nextId = 1;

  constructor(private readonly maxUsers: number = 1000) {}

  public add(input: Omit<T, "id">): T {
    if (this.users.size >= this.maxUsers) {
      throw new Error(`store is full (${this.maxUsers} users)`);
    }
    const user = { ...input, id: this.nextId++ } as T;
    this.users.set(user.id, user);
    return user;
  }

  find(predicate: (user: T) => boolean): T | undefined {
    for (const user of this.users.values()) {
      if (predicate(user)) return user;
    }
    return undefined;
  }

  get size(): number {
    return this.users.size;
  }
}

export async function createUser(req: Request, res: Response): Promise<void> {
  const parsed = UserInput.safeParse(req.body);
  if (!parsed.success) {
    res.status(400).json({ error: parsed.error.flatten() });
    return;
  }
  const status: Status = Status.Active;
  const user = store.add({ ...parsed.data, roles: ["member"] } as any);
  res.status(201).json({ user, status, createdAt: new Date().toISOString() });
}

declare const store: UserStore;
let counter: number | null = null;
